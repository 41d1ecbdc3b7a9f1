package proc

import (
	"os"
	"os/exec"
	"testing"
)

// TestAlive: this process runs; one that has ended does not.
func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Error("this process is not alive")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	if Alive(cmd.Process.Pid) {
		t.Errorf("process %d ended but is alive", cmd.Process.Pid)
	}
	if Alive(0) || Alive(-1) {
		t.Error("pid 0 or -1 is alive")
	}
}

// TestTag: a Tag names this process, and two Tags of it differ; a name
// that is no Tag has no process.
func TestTag(t *testing.T) {
	a, b := Tag(), Tag()
	if a == b || TagPID(a) != os.Getpid() || !Alive(TagPID(b)) {
		t.Errorf("tags %q and %q: pid %d, want two different tags of pid %d", a, b, TagPID(a), os.Getpid())
	}
	for _, name := range []string{"", "uploads", "x-12", "-3"} {
		if n := TagPID(name); n != 0 {
			t.Errorf("TagPID(%q) = %d, want 0", name, n)
		}
	}
}
