package source

import (
	"os"
	"testing"
)

// TestPipePause: the pause between two reads of the decoder's pipe runs its course while the
// decoder may still write (data in the pipe does not end it: batchedPipe waits for more), and
// ends at once, saying so, when the decoder has closed its end.
func TestPipePause(t *testing.T) {
	r, w, err := os.Pipe() // as xzutils.Start's, but for its size and blocking read end
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if pipePause(r) {
		t.Error("pause ended as if the writer had closed, while it is open")
	}
	if _, err := w.Write([]byte("8 KiB of tar")); err != nil {
		t.Fatal(err)
	}
	if pipePause(r) {
		t.Error("pause ended as if the writer had closed, with data in the pipe")
	}
	w.Close()
	if !pipePause(r) {
		t.Error("pause did not end when the writer closed")
	}
}
