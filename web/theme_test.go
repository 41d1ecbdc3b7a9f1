package web

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// themeForm builds the theme form's multipart body.
func themeForm(t *testing.T, fields map[string]string, logo []byte) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if logo != nil {
		f, _ := w.CreateFormFile("logo", "logo.png")
		f.Write(logo)
	}
	w.Close()
	return &b, w.FormDataContentType()
}

// TestTheme: the settings page saves a theme with a logo; the logo is
// served as the PNG the server made of it; the PDF carries the agency,
// the client and the logo; a logo that is not a PNG is refused with the
// field's message and the saved one stays; the diagram cache follows the
// theme.
func TestTheme(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	p := "/projects/" + itoa(pid)
	var logo bytes.Buffer
	png.Encode(&logo, image.NewRGBA(image.Rect(0, 0, 120, 40)))

	before := c.do("GET", p+"/diagram/svg", nil, false).Body.String()
	body, ct := themeForm(t, map[string]string{"accent": "#AA3300", "agency": "Studio North", "client_name": "Acme Corp"}, logo.Bytes())
	rec := c.raw("POST", p+"/theme", body, ct, true)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Theme saved.") {
		t.Fatalf("save theme: %d %s", rec.Code, rec.Body)
	}
	d := doc(t, c.do("GET", p+"/settings", nil, false))
	if v, _ := d.Find(`#theme-form input[name=accent]`).Attr("value"); v != "#aa3300" {
		t.Errorf("accent shown: %q", v)
	}
	if d.Find(`#theme-form img[src="`+p+`/logo.png"]`).Length() != 1 {
		t.Error("the settings page does not show the logo")
	}
	rec = c.do("GET", p+"/logo.png", nil, false)
	if cfg, err := png.DecodeConfig(bytes.NewReader(rec.Body.Bytes())); rec.Code != 200 || err != nil || cfg.Width != 120 {
		t.Errorf("logo.png: %d %v %+v", rec.Code, err, cfg)
	}
	if after := c.do("GET", p+"/diagram/svg", nil, false).Body.String(); after == before || !strings.Contains(after, "#aa3300") {
		t.Error("the diagram does not follow the new accent colour")
	}

	pdf := c.do("GET", p+"/diagram/pdf?cover=1", nil, false).Body.Bytes()
	if _, err := exec.LookPath("pdfimages"); err != nil && os.Getenv("CI") == "true" {
		t.Error("pdfimages is missing; .ci/run installs poppler-utils")
	} else if err == nil {
		path := filepath.Join(t.TempDir(), "t.pdf")
		os.WriteFile(path, pdf, 0o644)
		text, _ := exec.Command("pdftotext", path, "-").Output()
		for _, want := range []string{"Prepared for Acme Corp", "by Studio North"} {
			if !strings.Contains(string(text), want) {
				t.Errorf("the PDF lacks %q", want)
			}
		}
		images, _ := exec.Command("pdfimages", "-list", path).Output()
		if !strings.Contains(string(images), " 120    40 ") {
			t.Errorf("the PDF has no 120×40 logo:\n%s", images)
		}
	}

	// An SVG logo is kept as the pixels it draws: its script is gone.
	body, ct = themeForm(t, map[string]string{"accent": "#aa3300"}, []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" onload="alert(1)"><script>alert(1)</script><rect width="200" height="100" fill="#aa3300"/></svg>`))
	if rec := c.raw("POST", p+"/theme", body, ct, true); rec.Code != 200 {
		t.Fatalf("an SVG logo: %d %s", rec.Code, rec.Body)
	}
	rec = c.do("GET", p+"/logo.png", nil, false)
	if cfg, err := png.DecodeConfig(rec.Body); err != nil || cfg.Width != 1000 || cfg.Height != 500 || strings.Contains(rec.Body.String(), "alert") {
		t.Errorf("the SVG logo is served as %d bytes, %+v %v; want a 1000×500 PNG without its script", rec.Body.Len(), cfg, err)
	}
	body, ct = themeForm(t, map[string]string{"accent": "#aa3300"}, []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>Acme</text></svg>`))
	rec = c.raw("POST", p+"/theme", body, ct, true)
	if rec.Code != 422 || !strings.Contains(doc(t, rec).Find("#theme-form").Text(), "convert the text to outlines") {
		t.Errorf("an SVG logo with text: %d %s", rec.Code, rec.Body)
	}
	body, ct = themeForm(t, map[string]string{"accent": "#aa3300"}, []byte("GIF89a...."))
	rec = c.raw("POST", p+"/theme", body, ct, true)
	if rec.Code != 422 || !strings.Contains(doc(t, rec).Find("#theme-form").Text(), "The logo must be a PNG or SVG image.") {
		t.Errorf("a GIF logo: %d %s", rec.Code, rec.Body)
	}
	if rec := c.do("GET", p+"/logo.png", nil, false); rec.Code != 200 {
		t.Errorf("the refused upload lost the saved logo: %d", rec.Code)
	}
	body, ct = themeForm(t, map[string]string{"accent": "blue", "remove_logo": "1"}, nil)
	if rec := c.raw("POST", p+"/theme", body, ct, true); rec.Code != 422 || !strings.Contains(rec.Body.String(), "#rrggbb") {
		t.Errorf("accent blue: %d", rec.Code)
	}
	body, ct = themeForm(t, map[string]string{"accent": "#aa3300", "remove_logo": "1"}, nil)
	c.raw("POST", p+"/theme", body, ct, true)
	if rec := c.do("GET", p+"/logo.png", nil, false); rec.Code != 404 {
		t.Errorf("a removed logo: %d", rec.Code)
	}
}

// TestTeamBrand: the team's brand, set once on the Team page, is on a
// new project's diagrams and PDF without a theme of its own.
func TestTeamBrand(t *testing.T) {
	c := newClient(t)
	var logo bytes.Buffer
	png.Encode(&logo, image.NewRGBA(image.Rect(0, 0, 90, 30)))
	body, ct := themeForm(t, map[string]string{"accent": "#0F766E", "agency": "Northwind Studio"}, logo.Bytes())
	rec := c.raw("POST", "/team/theme", body, ct, true)
	if rec.Code != 200 || doc(t, rec).Find(`#team-theme-form img[src="/team/logo.png"]`).Length() != 1 {
		t.Fatalf("save: %d %.300s", rec.Code, rec.Body.String())
	}
	pid, _ := c.fixture() // a project of the team, with no theme of its own
	p := "/projects/" + itoa(pid)
	if svg := c.do("GET", p+"/diagram/svg", nil, false).Body.String(); !strings.Contains(svg, "#0f766e") {
		t.Error("the new project's diagram is not in the team's accent")
	}
	// The client's review carries the brand: the logo, the agency, the
	// accent (a style sheet of the project's: no inline style).
	path, _ := c.shareURL(pid, "view", "7d")
	client := c.peer()
	wantStatus(t, client.do("GET", path, nil, false), 303, "open the share link")
	review := doc(t, client.do("GET", p, nil, false))
	brand := review.Find("#review-brand")
	if !strings.HasPrefix(brand.Find("img").AttrOr("src", ""), p+"/brand.png?v=") || strings.TrimSpace(brand.Find(".agency").Text()) != "Northwind Studio" ||
		review.Find(`link[rel=stylesheet][href^="`+p+`/brand.css"]`).Length() != 1 {
		t.Errorf("the review's head does not carry the brand: %q", brand.Text())
	}
	if rec := client.do("GET", p+"/brand.css", nil, false); rec.Code != 200 || !strings.Contains(rec.Body.String(), "--accent: #0f766e") {
		t.Errorf("brand.css: %d %q", rec.Code, rec.Body.String())
	}
	if rec := client.do("GET", p+"/brand.png", nil, false); rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
		t.Errorf("brand.png: %d %v", rec.Code, rec.Header())
	}
	if _, err := exec.LookPath("pdfimages"); err == nil {
		path := filepath.Join(t.TempDir(), "t.pdf")
		os.WriteFile(path, c.do("GET", p+"/diagram/pdf?cover=1", nil, false).Body.Bytes(), 0o644)
		if text, _ := exec.Command("pdftotext", path, "-").Output(); !strings.Contains(string(text), "by Northwind Studio") {
			t.Errorf("the PDF does not name the team's agency:\n%s", text)
		}
		if images, _ := exec.Command("pdfimages", "-list", path).Output(); !strings.Contains(string(images), " 90    30 ") {
			t.Errorf("the PDF has no 90×30 logo:\n%s", images)
		}
	}
}

// TestHostileSVGLogo: the hostile probe's logo posted to /team/theme (a
// team anyone can make) is refused within the drawing's budget with the
// limit named, through the heavy-work gate, and nothing is saved.
func TestHostileSVGLogo(t *testing.T) {
	if testing.Short() {
		t.Skip("draws for the budget, 5 s")
	}
	c := newClient(t)
	var svg strings.Builder
	svg.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">`)
	for i := range 4000 {
		svg.WriteString(`<path d="M` + itoa(int64(i%1000)) + ` 0 L` + itoa(int64((i*7)%1000)) + ` 1000" stroke="#000" stroke-width="500" stroke-dasharray="1 1"/>`)
	}
	svg.WriteString(`</svg>`)
	body, ct := themeForm(t, map[string]string{"accent": "#aa3300"}, []byte(svg.String()))
	rec := c.raw("POST", "/team/theme", body, ct, true)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), "more than 5 seconds to draw") {
		t.Errorf("the hostile logo: %d %.300s", rec.Code, rec.Body.String())
	}
	if rec := c.do("GET", "/team/logo.png", nil, false); rec.Code != 404 {
		t.Errorf("a logo was saved: %d", rec.Code)
	}
}
