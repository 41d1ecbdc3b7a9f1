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
