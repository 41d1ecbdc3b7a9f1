package site

import (
	"bytes"
	"image"
	"image/png"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Theme is how a project's diagrams are branded: an accent colour, the
// agency's name and logo, the client's name. It is the agency's look, not
// part of the plan: it has no history and a version does not keep it.
type Theme struct {
	Accent     string // "#rrggbb"; "": the default
	Agency     string
	ClientName string
	Logo       []byte // a PNG that NormalizeLogo made; nil: none
	// LogoSum identifies the logo (its SHA-256 in hex; "": none), so
	// that what is drawn with it can be known without reading it.
	LogoSum string
}

// Limits of a theme.
const (
	MaxThemeName  = 100
	MaxLogoBytes  = 512 << 10
	MaxLogoPixels = 2000 // on either side
)

var accentPattern = regexp.MustCompile(`^#[0-9a-f]{6}$`)

// Validate normalises the theme's words and colour and checks them.
// Errors: EInvalid with the fields at fault.
func (t *Theme) Validate() error {
	f := FieldErrors{}
	t.Accent = strings.ToLower(strings.TrimSpace(t.Accent))
	if t.Accent != "" && !accentPattern.MatchString(t.Accent) {
		f.Add("accent", "The accent colour must be written #rrggbb, like #2563eb.")
	}
	for field, s := range map[string]*string{"agency": &t.Agency, "client_name": &t.ClientName} {
		*s = strings.Join(strings.Fields(*s), " ")
		if utf8.RuneCountInString(*s) > MaxThemeName {
			f.Add(field, "At most 100 characters.")
		}
		if strings.ContainsFunc(*s, isControl) {
			f.Add(field, "Remove the control characters.")
		}
	}
	return f.Err()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// NormalizeLogo checks an uploaded logo and returns it re-encoded: a PNG
// of at most MaxLogoBytes and MaxLogoPixels a side, with nothing of the
// upload but its pixels (no text chunks, no metadata). Errors: EInvalid,
// ETooLarge.
func NormalizeLogo(b []byte) ([]byte, error) {
	if len(b) > MaxLogoBytes {
		return nil, Errorf(ETooLarge, "The logo is %d KB; at most %d KB.", len(b)>>10, MaxLogoBytes>>10)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || format != "png" {
		return nil, Errorf(EInvalid, "The logo must be a PNG or SVG image.")
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxLogoPixels || cfg.Height > MaxLogoPixels {
		return nil, Errorf(EInvalid, "The logo is %d × %d pixels; at most %d on either side.", cfg.Width, cfg.Height, MaxLogoPixels)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, Errorf(EInvalid, "The logo is not a readable PNG.")
	}
	return EncodeLogo(img)
}

// EncodeLogo encodes a logo's pixels as the PNG a theme keeps, the
// pixels of an upload NormalizeLogo read or of an SVG drawn. Errors:
// EInvalid, ETooLarge.
func EncodeLogo(img image.Image) ([]byte, error) {
	if s := img.Bounds().Size(); s.X < 1 || s.Y < 1 || s.X > MaxLogoPixels || s.Y > MaxLogoPixels {
		return nil, Errorf(EInvalid, "The logo is %d × %d pixels; at most %d on either side.", s.X, s.Y, MaxLogoPixels)
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&out, img); err != nil {
		return nil, Errorf(EInvalid, "The logo could not be encoded.")
	}
	if out.Len() > 2*MaxLogoBytes { // re-encoded larger than it came: still bounded
		return nil, Errorf(ETooLarge, "The logo is too large once decoded; save it smaller.")
	}
	return out.Bytes(), nil
}
