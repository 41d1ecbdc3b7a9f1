// Package proc tells whether a process of this machine runs: what a
// server or an import left behind (uploads, unfinished projects) belongs
// to no one once its process is gone.
package proc

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Tag names what this process makes and another may find left behind
// (an upload directory, an import it writes): "PID-TOKEN", its process
// id and a random token, which another maker in the process, or a later
// process given the same id, lacks.
func Tag() string {
	b := make([]byte, 6)
	rand.Read(b)
	return strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b)
}

// TagPID is the process id a Tag names, or 0 for a name that is no Tag.
func TagPID(tag string) int {
	pid, _, _ := strings.Cut(tag, "-")
	n, err := strconv.Atoi(pid)
	if err != nil {
		return 0
	}
	return n
}

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
