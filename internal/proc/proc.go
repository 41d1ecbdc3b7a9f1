// Package proc tells whether a process of this machine runs: what a
// server or an import left behind (uploads, unfinished projects) belongs
// to no one once its process is gone.
package proc

import (
	"errors"
	"os"
	"syscall"
)

// Alive reports whether process pid runs on this machine. A pid that a
// new process took since is taken for alive: what it names is then left
// for the slower, age-based clean-up.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
