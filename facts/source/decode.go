package source

import (
	"errors"
	"io"
	"strings"
)

// decodeError is a failure of an archive's decompressor (gzip, xz, bzip2), told apart from the
// tar reader's: its complaint is what the error says, e.g. "gzip: invalid checksum" or, from
// xz-utils, "xz: Memory usage limit reached; 1 MiB of memory is required. The limit is 256 MiB.".
type decodeError struct {
	format format
	err    error
}

func (e *decodeError) Error() string {
	msg := e.err.Error()
	if name := e.format.String(); !strings.HasPrefix(msg, name) {
		msg = name + ": " + msg
	}
	return msg
}

func (e *decodeError) Unwrap() error { return e.err }

// isDecodeError says whether err is, or wraps, a decompressor's failure.
func isDecodeError(err error) bool {
	var de *decodeError
	return errors.As(err, &de)
}

// decoding tags the errors of the decompressed stream r of format f (io.EOF aside) as the
// decoder's (decodeError).
type decoding struct {
	r io.Reader
	f format
}

func (d decoding) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = &decodeError{format: d.f, err: err}
	}
	return n, err
}

// decoderFinish tags the complaint the function finish (of xz-utils: xzutils.Process.Finish)
// returns as the decoder's of format f, in one line (xzComplaint).
func decoderFinish(f format, finish func(kill bool) error) func(kill bool) error {
	return func(kill bool) error {
		if err := finish(kill); err != nil {
			return &decodeError{format: f, err: errors.New(xzComplaint(err.Error()))}
		}
		return nil
	}
}
