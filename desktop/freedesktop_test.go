package desktop

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func tempFolders(t *testing.T) Folders {
	t.Helper()
	root := t.TempDir()
	return Folders{DataHome: filepath.Join(root, "data"), ConfigHome: filepath.Join(root, "config")}
}

// TestInstallWritesTheHandOff: the desktop entry runs `<exe> launch %U`
// (the path quoted as the specification says, here with a space and a
// dollar sign), handles both schemes and every content type; the MIME
// package declares each type by its extension; mimeapps.list makes
// Companion the default and keeps what was there.
func TestInstallWritesTheHandOff(t *testing.T) {
	f := tempFolders(t)
	if err := os.MkdirAll(f.ConfigHome, 0o755); err != nil {
		t.Fatal(err)
	}
	before := "[Default Applications]\ntext/html=firefox.desktop\nx-scheme-handler/vttapp=other.desktop\n\n[Added Associations]\nimage/png=gimp.desktop;\n"
	if err := os.WriteFile(f.mimeapps(), []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := "/opt/Game Tools/$bin/companion"
	written, _, err := Install(f, exe, []byte("PNG"))
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 4 {
		t.Fatalf("written: %v", written)
	}

	entry := read(t, f.desktopEntry())
	for _, want := range []string{
		"[Desktop Entry]\n", "Type=Application\n", "Terminal=false\n", "Icon=companion\n",
		`Exec="/opt/Game Tools/\\$bin/companion" launch %U` + "\n",
		"MimeType=x-scheme-handler/vttapp;x-scheme-handler/vttapp-beta;application/x-vttapp-module;application/x-vttapp-campaign;" +
			"application/x-vttapp-system;application/x-vttapp-pack;application/x-vttapp-compendium;application/x-vttapp;application/x-uvtt;application/x-dd2vtt;\n",
	} {
		if !strings.Contains(entry, want) {
			t.Errorf("desktop entry lacks %q:\n%s", want, entry)
		}
	}

	var pkg struct {
		Types []struct {
			Type string `xml:"type,attr"`
			Glob struct {
				Pattern string `xml:"pattern,attr"`
			} `xml:"glob"`
			Sub struct {
				Type string `xml:"type,attr"`
			} `xml:"sub-class-of"`
		} `xml:"mime-type"`
	}
	if err := xml.Unmarshal([]byte(read(t, f.mimePackage())), &pkg); err != nil {
		t.Fatalf("MIME package is not XML: %v", err)
	}
	globs := map[string]string{}
	for _, mt := range pkg.Types {
		globs[mt.Glob.Pattern] = mt.Type
	}
	for _, ext := range []string{".module", ".campaign", ".system", ".pack", ".compendium", ".vttapp", ".uvtt", ".dd2vtt"} {
		if globs["*"+ext] == "" {
			t.Errorf("no MIME type for %s: %v", ext, globs)
		}
	}
	if read(t, f.icon()) != "PNG" {
		t.Error("icon not written")
	}

	apps := read(t, f.mimeapps())
	for _, want := range []string{"text/html=firefox.desktop\n", "[Added Associations]\nimage/png=gimp.desktop;\n",
		"x-scheme-handler/vttapp=companion.desktop\n", "x-scheme-handler/vttapp-beta=companion.desktop\n", "application/x-dd2vtt=companion.desktop\n"} {
		if !strings.Contains(apps, want) {
			t.Errorf("mimeapps.list lacks %q:\n%s", want, apps)
		}
	}
	if strings.Contains(apps, "other.desktop") || strings.Count(apps, "x-scheme-handler/vttapp=") != 1 {
		t.Errorf("the old vttapp handler is still there, or twice:\n%s", apps)
	}
	// Defaults must sit in their group, before the next one.
	if i, j := strings.Index(apps, "x-scheme-handler/vttapp=companion"), strings.Index(apps, "[Added Associations]"); i < 0 || i > j {
		t.Errorf("Companion's defaults outside [Default Applications]:\n%s", apps)
	}

	// Installing again changes nothing.
	if _, _, err := Install(f, exe, []byte("PNG")); err != nil {
		t.Fatal(err)
	}
	if again := read(t, f.mimeapps()); again != apps {
		t.Errorf("a second install changed mimeapps.list:\n%s\nwas\n%s", again, apps)
	}

	removed, _, err := Uninstall(f)
	if err != nil || len(removed) != 3 {
		t.Fatalf("uninstall removed %v: %v", removed, err)
	}
	for _, p := range []string{f.desktopEntry(), f.mimePackage(), f.icon()} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s still there", p)
		}
	}
	after := read(t, f.mimeapps())
	if strings.Contains(after, "companion.desktop") || !strings.Contains(after, "text/html=firefox.desktop") || !strings.Contains(after, "image/png=gimp.desktop;") {
		t.Errorf("mimeapps.list after uninstall:\n%s", after)
	}
}

// TestInstallIntoAnEmptyConfiguration: no mimeapps.list yet.
func TestInstallIntoAnEmptyConfiguration(t *testing.T) {
	f := tempFolders(t)
	if _, _, err := Install(f, "/usr/local/bin/companion", nil); err != nil {
		t.Fatal(err)
	}
	apps := read(t, f.mimeapps())
	if !strings.HasPrefix(apps, "[Default Applications]\nx-scheme-handler/vttapp=companion.desktop\n") {
		t.Fatalf("mimeapps.list:\n%s", apps)
	}
	if _, _, err := Install(f, "companion", nil); err == nil {
		t.Fatal("a relative program path was accepted")
	}
}

// TestDesktopToolsSeeTheHandOff asks the desktop's own tool, where it is
// installed, which program handles vttapp links, reading only the
// temporary folders.
func TestDesktopToolsSeeTheHandOff(t *testing.T) {
	if _, err := exec.LookPath("xdg-mime"); err != nil {
		t.Skip("xdg-mime not installed")
	}
	f := tempFolders(t)
	if _, _, err := Install(f, "/usr/local/bin/companion", nil); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("xdg-mime", "query", "default", "x-scheme-handler/vttapp")
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+f.DataHome, "XDG_CONFIG_HOME="+f.ConfigHome, "XDG_CURRENT_DESKTOP=", "DE=generic",
		"XDG_DATA_DIRS="+f.DataHome, "XDG_CONFIG_DIRS="+f.ConfigHome)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("xdg-mime: %v %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != DesktopFile {
		t.Fatalf("xdg-mime says vttapp links open with %q, want %s", got, DesktopFile)
	}
	// update-mime-database compiled the types into the database the
	// desktop reads file types from.
	if _, err := exec.LookPath("update-mime-database"); err == nil {
		globs := read(t, filepath.Join(f.DataHome, "mime", "globs2"))
		for _, want := range []string{"application/x-vttapp-module:*.module", "application/x-dd2vtt:*.dd2vtt"} {
			if !strings.Contains(globs, want) {
				t.Errorf("the MIME database lacks %q:\n%s", want, globs)
			}
		}
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
