package export

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"siteplan/site"
)

// wordpress is a scratch WordPress on this machine: Debian's wordpress
// package copied into a temporary directory, its own MariaDB server on a
// socket there, and the official WordPress Importer
// (../shared/clients/wordpress-importer, a test tool) as a plugin.
type wordpress struct {
	dir, sock string
}

// newWordPress starts one, or skips (fails on CI, which installs
// wordpress, mariadb-server, php-cli, php-mysql, php-xml, php-mbstring).
func newWordPress(t *testing.T) *wordpress {
	t.Helper()
	importer, _ := filepath.Abs("../../shared/clients/wordpress-importer/src")
	for _, need := range []string{"php", "mariadbd", "mysql_install_db", "mysql"} {
		if _, err := exec.LookPath(need); err != nil {
			missing(t, need)
		}
	}
	for _, dir := range []string{"/usr/share/wordpress", importer} {
		if _, err := os.Stat(dir); err != nil {
			missing(t, dir)
		}
	}
	wp := &wordpress{dir: t.TempDir()}
	// A socket's path has at most 107 bytes: the temporary directory may
	// be long.
	sockDir, err := os.MkdirTemp("", "wp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	wp.sock = filepath.Join(sockDir, "sock")
	data := filepath.Join(wp.dir, "db")
	user := []string{}
	if os.Geteuid() == 0 {
		user = []string{"--user=root"}
	}
	if out, err := exec.Command("mysql_install_db", append([]string{"--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal"}, user...)...).CombinedOutput(); err != nil {
		t.Fatalf("mysql_install_db: %v\n%s", err, out)
	}
	db := exec.Command("mariadbd", append([]string{"--no-defaults", "--datadir=" + data, "--socket=" + wp.sock, "--skip-networking",
		"--pid-file=" + filepath.Join(wp.dir, "pid")}, user...)...)
	var dbLog bytes.Buffer
	db.Stdout, db.Stderr = &dbLog, &dbLog
	if err := db.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Process.Kill(); db.Wait() })
	for deadline := time.Now().Add(60 * time.Second); ; {
		if c, err := net.Dial("unix", wp.sock); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("MariaDB did not start:\n%s", dbLog.String())
		}
		time.Sleep(50 * time.Millisecond) // polling for the socket: the server gives no other sign
	}
	if out, err := exec.Command("mysql", "--no-defaults", "--socket="+wp.sock, "-u", "root", "-e", "CREATE DATABASE wp").CombinedOutput(); err != nil {
		t.Fatalf("create the database: %v\n%s", err, out)
	}
	site := filepath.Join(wp.dir, "site")
	if out, err := exec.Command("cp", "-rL", "/usr/share/wordpress", site).CombinedOutput(); err != nil {
		t.Fatalf("copy WordPress: %v\n%s", err, out)
	}
	os.MkdirAll(filepath.Join(site, "wp-content", "plugins"), 0o755)
	if out, err := exec.Command("cp", "-r", importer, filepath.Join(site, "wp-content", "plugins", "wordpress-importer")).CombinedOutput(); err != nil {
		t.Fatalf("copy the importer: %v\n%s", err, out)
	}
	config := fmt.Sprintf(`<?php
define('DB_NAME', 'wp');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:%s');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
$table_prefix = 'wp_';
define('WP_HOME', 'https://www.acme.example');
define('WP_SITEURL', 'https://www.acme.example');
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`, wp.sock)
	os.WriteFile(filepath.Join(site, "wp-config.php"), []byte(config), 0o644)
	return wp
}

func missing(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed", what)
	}
	t.Skipf("%s is not installed", what)
}

// php runs a script in WordPress's directory and returns what it prints.
func (wp *wordpress) php(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	file := filepath.Join(wp.dir, "script.php")
	os.WriteFile(file, []byte(script), 0o644)
	cmd := exec.Command("php", append([]string{file}, args...)...)
	cmd.Dir = filepath.Join(wp.dir, "site")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("php: %v\n%s\n%s", err, out, stderr.String())
	}
	return out
}

// wpInstall installs WordPress with a permalink structure.
const wpInstall = `<?php
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = 'www.acme.example';
require 'wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
wp_install('Test', 'admin', 'admin@acme.example', false, '', 'a long password');
update_option('permalink_structure', $argv[1]);
echo "ok";
`

// wpImport imports a WXR file as the admin (the importer's form's
// choices: the file's author mapped to the admin, no attachments), makes
// the page whose GUID is the second argument the static front page, as
// docs/cli.md says to, and prints every page: its GUID, address (as it
// will be once published), status and Yoast SEO title, and the menus'
// items.
const wpImport = `<?php
$_SERVER['HTTP_HOST'] = 'www.acme.example';
define('WP_LOAD_IMPORTERS', true);
require 'wp-load.php';
require_once ABSPATH . 'wp-admin/includes/admin.php';
require_once ABSPATH . 'wp-content/plugins/wordpress-importer/wordpress-importer.php';
wp_set_current_user(1);
$_POST['imported_authors'] = ['siteplan'];
$_POST['user_map'] = [1];
$imp = new WP_Import();
$imp->fetch_attachments = false;
ob_start();
$imp->import($argv[1]);
$log = ob_get_clean();
foreach (get_posts(['post_type' => 'page', 'post_status' => 'any', 'numberposts' => -1]) as $p) {
	if ($p->guid === $argv[2]) {
		update_option('show_on_front', 'page');
		update_option('page_on_front', $p->ID);
	}
}
$pages = [];
foreach (get_posts(['post_type' => ['page', 'post'], 'post_status' => 'any', 'numberposts' => -1, 'orderby' => 'ID', 'order' => 'ASC']) as $p) {
	$pub = clone $p;
	$pub->post_status = 'publish';
	$links = [];
	foreach (parse_blocks($p->post_content) as $b) {
		if ($b['blockName'] === 'core/list' && preg_match_all('/href="([^"]+)"/', $b['innerHTML'] . implode('', array_map(fn($i) => $i['innerHTML'], $b['innerBlocks'])), $m)) {
			$links = array_merge($links, $m[1]);
		}
	}
	$pages[] = ['guid' => $p->guid, 'title' => $p->post_title, 'link' => get_permalink($pub), 'status' => $p->post_status,
		'seo' => get_post_meta($p->ID, '_yoast_wpseo_title', true), 'links' => $links];
}
$menus = [];
foreach (wp_get_nav_menus() as $m) {
	$menus[$m->slug] = count(wp_get_nav_menu_items($m->term_id));
}
echo json_encode(['log' => trim(strip_tags($log)), 'pages' => $pages, 'menus' => $menus]);
`

// wpPage is a page as WordPress has it after the import.
type wpPage struct {
	GUID, Title, Link, Status, SEO string
	Links                          []string // the cross-links its content's list blocks hold
}

// wordpressPlan is a plan of some 1,300 pages of the kinds that went
// wrong: top-level sections under the home page, groups whose slug
// prefixes their pages, titles many pages share, typed slugs with
// umlauts, CJK, right-to-left script and emoji, titles with & and
// quotes, a path override that follows the tree and one that does not,
// footer navigation.
func wordpressPlan(trailing bool) (tr *site.Tree, off, press, nested int64) {
	pr := site.Project{Name: "Relaunch", BaseURL: "https://www.acme.example/", TrailingSlash: trailing}
	var pages []site.Page
	id := int64(0)
	add := func(parent int64, title, slug, kind string) int64 {
		id++
		pos := 0
		for _, p := range pages {
			if p.ParentID == parent {
				pos++
			}
		}
		p := site.Page{ID: id, ParentID: parent, Position: pos, Title: title, Slug: slug, Kind: kind, Placement: site.PlacementMain, Status: site.StatusPlanned,
			InSitemap: true, Brief: site.Brief{SEOTitle: title + " | Acme"}}
		pages = append(pages, p)
		return id
	}
	home := add(0, "Home", "", site.KindPage)
	add(home, "Über uns", "über-uns", site.KindPage)
	add(home, "关于我们", "关于我们", site.KindPage)
	add(home, "אודות", "אודות", site.KindPage)
	add(home, "Rocket 🚀", "rocket-🚀", site.KindPage)
	add(home, `Fish & "Chips"`, "fish-chips", site.KindPage)
	article := func(parent int64, title, slug string) int64 {
		id := add(parent, title, slug, site.KindPage)
		pages[id-1].Type = "article" // handed off as a post
		return id
	}
	article(home, "Hello world", "hello-world")
	article(home, "Second post", "second-post")
	var first int64
	for s := range 12 {
		sec := add(home, fmt.Sprintf("Section %d", s), fmt.Sprintf("section-%d", s), site.KindPage)
		first = cmp.Or(first, sec)
		grp := add(sec, "Products", "produkte", site.KindGroup)
		for i := range 50 {
			add(grp, "Overview", fmt.Sprintf("item-%d", i), site.KindPage) // one title, 600 times
		}
		for i := range 55 {
			p := add(sec, fmt.Sprintf("Page %d", i), fmt.Sprintf("page-%d", i), site.KindPage)
			if i == 0 {
				add(p, "Details", "details", site.KindPlaceholder)
			}
		}
	}
	nested = article(first, "An article in a section", "in-a-section") // a post has no parent in WordPress
	press = add(home, "Press kit", "press-kit", site.KindPage)
	pages[press-1].Path = "/press-kit"
	legal := add(0, "Legal", "legal", site.KindGroup)
	pages[legal-1].Placement = site.PlacementFooter
	add(legal, "Imprint", "imprint", site.KindPage)
	off = add(legal, "Privacy", "privacy", site.KindPage)
	pages[off-1].Path = "/data/privacy"
	return site.NewTree(pr, pages), off, press, nested
}

// TestWordPressHandoff imports the WXR handoff of a plan of 1,300 pages
// into a real WordPress with the official importer, with the permalinks
// a plan with and without trailing slashes asks for: every page exists
// once, its address once published is the plan's URL (the one page whose
// path override WordPress cannot follow is said before the import, and
// it alone differs), titles and SEO titles as planned, the menus made.
func TestWordPressHandoff(t *testing.T) {
	if testing.Short() {
		t.Skip("installs WordPress")
	}
	for _, trailing := range []bool{false, true} {
		t.Run(fmt.Sprintf("trailing slash %t", trailing), func(t *testing.T) {
			wp := newWordPress(t)
			structure := "/%postname%"
			if trailing {
				structure += "/"
			}
			wp.php(t, wpInstall, structure)
			tr, off, press, nested := wordpressPlan(trailing)
			var buf bytes.Buffer
			links := []site.Link{{FromID: 1, ToID: 2, Label: "Who we are"}, {FromID: 2, ToID: press}}
			warnings, err := WriteWXR(&buf, tr, WXROptions{Links: links, PostTypes: map[string]string{"article": "post"}, At: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			// Said before the import: the override outside the tree, and
			// with trailing slashes the one written without.
			wantWarned := map[int64]bool{off: true, nested: true}
			if trailing {
				wantWarned[press] = true
			}
			if len(warnings) != len(wantWarned) || !strings.Contains(strings.Join(warnings, " "), "“Privacy”: WordPress would put it at /legal/privacy") {
				t.Errorf("the warnings before the import: %q", warnings)
			}
			file := filepath.Join(wp.dir, "plan.xml")
			os.WriteFile(file, buf.Bytes(), 0o644)
			var got struct {
				Log   string
				Pages []wpPage
				Menus map[string]int
			}
			if err := json.Unmarshal(wp.php(t, wpImport, file, wxrGUIDOf("https://www.acme.example", 1)), &got); err != nil {
				t.Fatal(err)
			}
			byGUID := map[string][]wpPage{}
			for _, p := range got.Pages {
				byGUID[p.GUID] = append(byGUID[p.GUID], p)
			}
			right, planned := 0, 0
			tr.Walk(func(p *site.Page, _ int) bool {
				if p.Kind != site.KindPage && p.Kind != site.KindPlaceholder {
					return true
				}
				planned++
				ps := byGUID[wxrGUIDOf("https://www.acme.example", p.ID)]
				if len(ps) != 1 {
					t.Errorf("“%s” (%d) is in WordPress %d times", p.Title, p.ID, len(ps))
					return true
				}
				want := tr.Location(p.ID)
				if wantWarned[p.ID] {
					return true // said before the import
				}
				if pctUpper(ps[0].Link) != pctUpper(want) {
					t.Errorf("“%s”: WordPress has %s, the plan %s", p.Title, ps[0].Link, want)
				} else {
					right++
				}
				var wantLinks []string
				for _, l := range links {
					if l.FromID == p.ID {
						wantLinks = append(wantLinks, pctUpper(tr.Location(l.ToID)))
					}
				}
				var gotLinks []string
				for _, l := range ps[0].Links {
					gotLinks = append(gotLinks, pctUpper(l))
				}
				if strings.Join(gotLinks, " ") != strings.Join(wantLinks, " ") {
					t.Errorf("“%s”: its content links %q, want %q (parse_blocks)", p.Title, gotLinks, wantLinks)
				}
				if ps[0].Title != p.Title || ps[0].SEO != p.Brief.SEOTitle {
					t.Errorf("“%s”: WordPress has the title %q and SEO title %q", p.Title, ps[0].Title, ps[0].SEO)
				}
				return true
			})
			t.Logf("%d of %d planned pages at the plan's URL (%d said before the import); menus %v", right, planned, len(wantWarned), got.Menus)
			if right != planned-len(wantWarned) {
				t.Errorf("%d of %d pages at the plan's URL; the importer said:\n%.2000s", right, planned-len(wantWarned), got.Log)
			}
			if got.Menus["main-navigation"] == 0 || got.Menus["footer-navigation"] == 0 {
				t.Errorf("menus %v", got.Menus)
			}
		})
	}
}

// wpImportLocalized imports a WXR with the language taxonomies Polylang
// registers (language, post_translations) and prints every page: its
// title, its parent's title, its WPML import fields and its terms.
const wpImportLocalized = `<?php
$_SERVER['HTTP_HOST'] = 'www.acme.example';
define('WP_LOAD_IMPORTERS', true);
require 'wp-load.php';
require_once ABSPATH . 'wp-admin/includes/admin.php';
require_once ABSPATH . 'wp-content/plugins/wordpress-importer/wordpress-importer.php';
register_taxonomy('language', 'page', ['public' => false]);
register_taxonomy('post_translations', 'page', ['public' => false]);
wp_set_current_user(1);
$_POST['imported_authors'] = ['siteplan'];
$_POST['user_map'] = [1];
$imp = new WP_Import();
$imp->fetch_attachments = false;
ob_start();
$imp->import($argv[1]);
ob_end_clean();
$out = [];
foreach (get_posts(['post_type' => 'page', 'post_status' => 'any', 'numberposts' => -1, 'orderby' => 'ID', 'order' => 'ASC']) as $p) {
	if (!get_post_meta($p->ID, '_wpml_import_language_code', true)) {
		continue; // WordPress's own sample pages
	}
	$parent = $p->post_parent ? get_post($p->post_parent)->post_title : '';
	$terms = wp_get_object_terms($p->ID, ['language', 'post_translations'], ['fields' => 'slugs']);
	sort($terms);
	$out[] = sprintf('%s under "%s": %s group %s from "%s" (%s)', $p->post_title, $parent,
		get_post_meta($p->ID, '_wpml_import_language_code', true), get_post_meta($p->ID, '_wpml_import_translation_group', true),
		get_post_meta($p->ID, '_wpml_import_source_language_code', true), implode(' ', $terms));
}
echo implode("\n", $out);
`

// TestWordPressLocalized imports a localized plan's WXR into WordPress
// with its importer: each locale's pages arrive under their parents
// there, with the WPML import fields and the Polylang terms kept.
func TestWordPressLocalized(t *testing.T) {
	if testing.Short() {
		t.Skip("installs WordPress")
	}
	wp := newWordPress(t)
	wp.php(t, wpInstall, "/%postname%")
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, links := d.Tree()
	var buf bytes.Buffer
	if _, err := WriteWXR(&buf, tr, WXROptions{Links: links, At: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(wp.dir, "plan.xml")
	os.WriteFile(file, buf.Bytes(), 0o644)
	got := strings.Split(strings.TrimSpace(string(wp.php(t, wpImportLocalized, file))), "\n")
	slices.Sort(got)
	want := []string{
		`Home under "": de group 1 from "en" (de pll_1)`,
		`Home under "": en group 1 from "" (en pll_1)`,
		`Home under "": fr-ch group 1 from "en" (fr-ch pll_1)`,
		`Magasins under "": fr-ch group 4 from "en" (fr-ch pll_4)`,
		`Preise under "Produkte": de group 3 from "en" (de pll_3)`,
		`Pricing under "Products": en group 3 from "" (en pll_3)`,
		`Products under "": en group 2 from "" (en pll_2)`,
		`Products under "": fr-ch group 2 from "en" (fr-ch pll_2)`,
		`Produkte under "": de group 2 from "en" (de pll_2)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("WordPress has:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
