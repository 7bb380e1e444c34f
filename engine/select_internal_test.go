package engine

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSelectedLibraries: compiling some node rules takes the library modules they refer to,
// transitively (through an import or a full reference, a package below the one named too), not
// the others; a reference that names the libraries with a variable takes every one of them;
// a bare `data` takes every library and rule package; compiling every rule takes every library.
// Never the fleet libraries.
func TestSelectedLibraries(t *testing.T) {
	ruleSrc := func(id, body string) string {
		return "# METADATA\n# title: T\n# description: D.\n# scope: package\n# custom:\n#   id: " + strings.ReplaceAll(id, "_", "-") +
			"\n#   area: ib\n#   severity: error\n#   confidence: high\n#   requires: [ib_ports]\n#   fix:\n#     - command: ibstat {{device}}\npackage rdmadoctor.rules." + id +
			"\n\n" + body + "\n\nfindings contains f if {\n\tsome dev in input.devices\n\tf := {\"subject\": {\"device\": dev.name}, \"message\": dev.name, \"evidence\": []}\n}\n"
	}
	fsys := fstest.MapFS{
		"lib/a.rego":     {Data: []byte("package rdmadoctor.lib.a\n\nimport data.rdmadoctor.lib.b\n\nx := b.y\n")},
		"lib/b.rego":     {Data: []byte("package rdmadoctor.lib.b\n\ny := 1\n")},
		"lib/b_sub.rego": {Data: []byte("package rdmadoctor.lib.b.sub\n\nz := 2\n")},
		"lib/c.rego":     {Data: []byte("package rdmadoctor.lib.c\n\nw := 3\n")},
		"lib/fleet.rego": {Data: []byte("package rdmadoctor.lib.fleet\n\nv := 4\n")},
		"ib/uses_a.rego": {Data: []byte(ruleSrc("uses_a", "import data.rdmadoctor.lib.a\n\nq := a.x"))},
		"ib/uses_c.rego": {Data: []byte(ruleSrc("uses_c", "q := data.rdmadoctor.lib.c.w"))},
		"ib/any.rego":    {Data: []byte(ruleSrc("any", "q(n) := data.rdmadoctor.lib[n]"))},
		"ib/none.rego":   {Data: []byte(ruleSrc("none", ""))},
		"ib/bare.rego":   {Data: []byte(ruleSrc("bare", "q := object.get(data, [\"rdmadoctor\", \"lib\", \"c\", \"w\"], 0)"))},
	}
	set, err := Load(Source{Name: "t", FS: fsys, Tested: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ids  []string
		want string
	}{
		{[]string{"none"}, "ib/none"},
		{[]string{"uses-a"}, "ib/uses_a lib/a lib/b lib/b_sub"},
		{[]string{"uses-c", "none"}, "ib/none ib/uses_c lib/c"},
		{[]string{"any"}, "ib/any lib/a lib/b lib/b_sub lib/c"},
		{[]string{"bare"}, "ib/any ib/bare ib/none ib/uses_a ib/uses_c lib/a lib/b lib/b_sub lib/c"},
		{nil, "ib/any ib/bare ib/none ib/uses_a ib/uses_c lib/a lib/b lib/b_sub lib/c"},
	} {
		mods, _, err := set.modulesFor(tc.ids, false)
		if err != nil {
			t.Fatalf("%v: %v", tc.ids, err)
		}
		var got []string
		for f := range mods {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(f, "t/"), ".rego"))
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("modules for %v = %q, want %q", tc.ids, strings.Join(got, " "), tc.want)
		}
	}
}

func TestLibraryRef(t *testing.T) {
	for ref, want := range map[string][2]bool{
		"data.rdmadoctor.lib.port.up":   {true, false},
		"data.rdmadoctor.lib.port[x].y": {true, false},
		"data.rdmadoctor.lib[x]":        {false, true},
		"data.rdmadoctor.lib":           {false, true},
		"data.rdmadoctor":               {false, true},
		"data[x].lib.port":              {false, true},
		"data":                          {false, true},
		"data.rdmadoctor.rules.x":       {false, false},
		"data.data.hca_models":          {false, false},
		"input.devices":                 {false, false},
	} {
		lib, all := libraryRef(ast.MustParseRef(ref))
		if [2]bool{lib, all} != want {
			t.Errorf("libraryRef(%s) = %v, %v; want %v", ref, lib, all, want)
		}
	}
}

// TestWholeModule: a module Load read by its header is parsed whole without its METADATA
// parsed again, and is the module a parse of the whole file gives, METADATA included (as a
// block of the package); a module with METADATA below its package statement is parsed with it.
func TestWholeModule(t *testing.T) {
	ruleWith := func(below string) string {
		return "# METADATA\n# title: T\n# description: D.\n# scope: package\n# custom:\n#   id: r\n#   area: ib\n#   severity: error\n#   confidence: high\n#   requires: [ib_ports]\n#   fix:\n#     - command: ibstat {{device}}\npackage rdmadoctor.rules.r\n\n" +
			below + "findings contains f if {\n\tsome dev in input.devices\n\tf := {\"subject\": {\"device\": dev.name}, \"message\": dev.name, \"evidence\": []}\n}\n"
	}
	extra := Source{Name: "t", Tested: true, FS: fstest.MapFS{
		"ib/r.rego": {Data: []byte(ruleWith("# METADATA\n# title: findings\n# description: the rule's findings.\n"))},
	}}
	for _, src := range []Source{Builtin(), extra} {
		set, err := Load(src)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range set.modules {
			if !m.header {
				continue
			}
			n++
			got, errs := m.whole()
			if errs != nil {
				t.Fatalf("%s: %v", m.file, errs)
			}
			want, errs := parse(m.file, m.src)
			if errs != nil {
				t.Fatalf("%s: %v", m.file, errs)
			}
			if !got.Equal(want) {
				t.Errorf("%s: whole module differs from the file parsed", m.file)
			}
			if len(got.Annotations) != len(want.Annotations) || len(want.Annotations) == 0 && strings.Contains(string(m.src), "METADATA") {
				t.Fatalf("%s: %d METADATA blocks, want %d", m.file, len(got.Annotations), len(want.Annotations))
			}
			for i, a := range got.Annotations {
				if a.Compare(want.Annotations[i]) != 0 || a.Scope != want.Annotations[i].Scope || !a.GetTargetPath().Equal(want.Annotations[i].GetTargetPath()) {
					t.Errorf("%s: METADATA block %d: %v, want %v", m.file, i, a, want.Annotations[i])
				}
			}
			as, aerrs := ast.BuildAnnotationSet([]*ast.Module{got.Copy()}) // as the compiler takes it
			if aerrs != nil || len(as.Flatten()) != len(want.Annotations) {
				t.Errorf("%s: annotation set %v (%v), want %d blocks", m.file, as.Flatten(), aerrs, len(want.Annotations))
			}
		}
		if n == 0 {
			t.Fatalf("%s: no module read by its header", src.Name)
		}
	}
}
