package site

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"strings"
	"testing"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withText adds a tEXt chunk after a PNG's header chunk.
func withText(b []byte, text string) []byte {
	var chunk bytes.Buffer
	binary.Write(&chunk, binary.BigEndian, uint32(len(text)))
	chunk.WriteString("tEXt" + text)
	binary.Write(&chunk, binary.BigEndian, crc32.ChecksumIEEE([]byte("tEXt"+text)))
	at := 8 + 25 // signature, IHDR
	return append(append(append([]byte{}, b[:at]...), chunk.Bytes()...), b[at:]...)
}

// TestNormalizeLogo: a PNG comes back as pixels only; anything else, or
// too large, is refused with what to fix.
func TestNormalizeLogo(t *testing.T) {
	hostile := withText(pngOf(t, 30, 10), "Comment\x00<script>alert(1)</script>")
	if _, err := png.Decode(bytes.NewReader(hostile)); err != nil {
		t.Fatalf("the test's PNG with text does not decode: %v", err)
	}
	out, err := NormalizeLogo(hostile)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("script")) || bytes.Contains(out, []byte("tEXt")) {
		t.Error("the logo kept the upload's text chunk")
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(out)); err != nil || cfg.Width != 30 || cfg.Height != 10 {
		t.Errorf("normalised logo: %+v, %v", cfg, err)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		code string
		msg  string
	}{
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), EInvalid, "must be a PNG"},
		{"jpeg magic", []byte("\xff\xd8\xff\xe0rest"), EInvalid, "must be a PNG"},
		{"too wide", pngOf(t, MaxLogoPixels+1, 1), EInvalid, "2001 × 1 pixels"},
		{"too many bytes", append(pngOf(t, 1, 1), make([]byte, MaxLogoBytes)...), ETooLarge, "at most 512 KB"},
	} {
		_, err := NormalizeLogo(tc.in)
		if ErrorCode(err) != tc.code || !strings.Contains(ErrorMessage(err), tc.msg) {
			t.Errorf("%s: %v, want %s saying %q", tc.name, err, tc.code, tc.msg)
		}
	}
}
