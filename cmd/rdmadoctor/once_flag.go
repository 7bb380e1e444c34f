package main

import "errors"

// errSeveralSnapshots refuses a repeated --snapshot: urfave/cli would keep the last one and
// silently diagnose one node of the several the user meant.
var errSeveralSnapshots = errors.New("give one --snapshot: rdmadoctor diagnoses one node at a time")

// onceValue is a flag.Value that may be set once only; a second Set fails with err.
type onceValue struct {
	value string
	set   bool
	err   error
}

func (o *onceValue) Set(v string) error {
	if o.set {
		return o.err
	}
	o.value, o.set = v, true
	return nil
}

func (o *onceValue) String() string { return o.value }
