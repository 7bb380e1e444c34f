// Package packaging holds the Debian package's layout, nfpm.yaml, which `make deb` builds with
// nfpm (the `tool` in go.mod); deb_test.go builds, installs and removes the package.
package packaging
