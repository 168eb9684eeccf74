package desktop

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The freedesktop.org hand-off: a desktop entry that handles the vttapp and
// vttapp-beta link schemes and the content file types, shared-mime-info
// types for those files, an icon, and Companion as their default handler
// in the user's mimeapps.list. All of it goes into the user's own folders
// (XDG_DATA_HOME, XDG_CONFIG_HOME); nothing needs root.

// DesktopFile is the name of the desktop entry, the id the default handler
// lines name.
const DesktopFile = "companion.desktop"

// Schemes are the link schemes handed to Companion (contract 4.10).
var Schemes = []string{"vttapp", "vttapp-beta"}

// FileType is a content file type Companion opens: a MIME type of its own,
// the file name pattern, what it is and what it is a kind of.
type FileType struct {
	MIME, Glob, Comment, SubClassOf string
}

// FileTypes are the document types the contract registers (4.10, "File
// handoff"): the content archives are zip files, the Universal VTT maps
// JSON.
var FileTypes = []FileType{
	{"application/x-vttapp-module", "*.module", "Companion module", "application/zip"},
	{"application/x-vttapp-campaign", "*.campaign", "Companion campaign", "application/zip"},
	{"application/x-vttapp-system", "*.system", "Companion game system", "application/zip"},
	{"application/x-vttapp-pack", "*.pack", "Companion content pack", "application/zip"},
	{"application/x-vttapp-compendium", "*.compendium", "Companion compendium", "application/zip"},
	{"application/x-vttapp", "*.vttapp", "Companion content archive", "application/zip"},
	{"application/x-uvtt", "*.uvtt", "Universal VTT map", "application/json"},
	{"application/x-dd2vtt", "*.dd2vtt", "Universal VTT map (DungeonDraft)", "application/json"},
}

// Folders are where the hand-off is written: the user's XDG data and
// configuration folders.
type Folders struct {
	DataHome   string // $XDG_DATA_HOME, ~/.local/share by default
	ConfigHome string // $XDG_CONFIG_HOME, ~/.config by default
}

// UserFolders returns the user's XDG folders from the environment.
func UserFolders() (Folders, error) {
	home, err := os.UserHomeDir()
	f := Folders{DataHome: os.Getenv("XDG_DATA_HOME"), ConfigHome: os.Getenv("XDG_CONFIG_HOME")}
	if f.DataHome == "" || f.ConfigHome == "" {
		if err != nil {
			return f, fmt.Errorf("no home folder to install into: %w", err)
		}
		if f.DataHome == "" {
			f.DataHome = filepath.Join(home, ".local", "share")
		}
		if f.ConfigHome == "" {
			f.ConfigHome = filepath.Join(home, ".config")
		}
	}
	return f, nil
}

func (f Folders) desktopEntry() string { return filepath.Join(f.DataHome, "applications", DesktopFile) }
func (f Folders) mimePackage() string {
	return filepath.Join(f.DataHome, "mime", "packages", "companion.xml")
}
func (f Folders) icon() string {
	return filepath.Join(f.DataHome, "icons", "hicolor", "64x64", "apps", "companion.png")
}
func (f Folders) mimeapps() string { return filepath.Join(f.ConfigHome, "mimeapps.list") }

// Install writes the hand-off for the executable exe (an absolute path):
// the desktop entry runs `exe launch %U`. icon is a 64x64 PNG. It returns
// the files written, and then refreshes the desktop's caches when their
// tools are installed (update-mime-database, update-desktop-database);
// what a tool said is returned as notes, not errors: the files work
// without it after the next login.
func Install(f Folders, exe string, icon []byte) (written, notes []string, err error) {
	if !filepath.IsAbs(exe) {
		return nil, nil, fmt.Errorf("the program's path %q is not absolute", exe)
	}
	files := []struct {
		path string
		data []byte
	}{
		{f.desktopEntry(), []byte(desktopEntry(exe))},
		{f.mimePackage(), []byte(mimePackage())},
		{f.icon(), icon},
	}
	for _, file := range files {
		if err := writeFile(file.path, file.data); err != nil {
			return written, nil, err
		}
		written = append(written, file.path)
	}
	if err := editMimeapps(f.mimeapps(), true); err != nil {
		return written, nil, err
	}
	written = append(written, f.mimeapps())
	return written, refreshCaches(f), nil
}

// Uninstall removes what Install wrote and Companion's lines from
// mimeapps.list, leaving every other line as it was.
func Uninstall(f Folders) (removed, notes []string, err error) {
	for _, path := range []string{f.desktopEntry(), f.mimePackage(), f.icon()} {
		switch err := os.Remove(path); {
		case err == nil:
			removed = append(removed, path)
		case !errors.Is(err, os.ErrNotExist):
			return removed, nil, err
		}
	}
	if err := editMimeapps(f.mimeapps(), false); err != nil {
		return removed, nil, err
	}
	return removed, refreshCaches(f), nil
}

// desktopEntry is the entry's text. %U hands the links and files over as
// URLs (a file as file://...), several at once.
func desktopEntry(exe string) string {
	var mimes []string
	for _, s := range Schemes {
		mimes = append(mimes, "x-scheme-handler/"+s)
	}
	for _, t := range FileTypes {
		mimes = append(mimes, t.MIME)
	}
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Version=1.5\n" +
		"Name=Companion\n" +
		"GenericName=Game companion server\n" +
		"Comment=Serve the game to players' browsers on this network; open vttapp links and content files\n" +
		"Exec=" + execQuote(exe) + " launch %U\n" +
		"TryExec=" + escapeValue(exe) + "\n" +
		"Icon=companion\n" +
		"Terminal=false\n" +
		"Categories=Game;RolePlaying;\n" +
		"MimeType=" + strings.Join(mimes, ";") + ";\n" +
		"StartupNotify=false\n"
}

// execQuote quotes a program path for an Exec key: inside double quotes,
// '"', '`', '$' and '\' are escaped with a backslash, and then the value
// itself escapes every backslash again (Desktop Entry Specification, "The
// Exec key").
func execQuote(path string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range path {
		if strings.ContainsRune("\"`$\\", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return escapeValue(b.String())
}

// escapeValue escapes a string value of a desktop entry: backslash, and the
// control characters that would end the line.
func escapeValue(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}

func mimePackage() string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	b.WriteString("<mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n")
	for _, t := range FileTypes {
		fmt.Fprintf(&b, "  <mime-type type=%q>\n    <comment>%s</comment>\n    <sub-class-of type=%q/>\n    <glob pattern=%q weight=\"60\"/>\n  </mime-type>\n",
			t.MIME, t.Comment, t.SubClassOf, t.Glob)
	}
	b.WriteString("</mime-info>\n")
	return b.String()
}

// editMimeapps makes Companion the default handler of the schemes and file
// types in mimeapps.list's [Default Applications] (install), or removes
// the lines that name it (uninstall). Other groups and lines are kept as
// they were.
func editMimeapps(path string, install bool) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	ours := map[string]bool{}
	for _, s := range Schemes {
		ours["x-scheme-handler/"+s] = true
	}
	for _, t := range FileTypes {
		ours[t.MIME] = true
	}
	var out []string
	group, sawDefaults := "", false
	addOurs := func() {
		for _, s := range Schemes {
			out = append(out, "x-scheme-handler/"+s+"="+DesktopFile)
		}
		for _, t := range FileTypes {
			out = append(out, t.MIME+"="+DesktopFile)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(old))
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") {
			if group == "[Default Applications]" && install {
				addOurs()
			}
			group = trimmed
			sawDefaults = sawDefaults || group == "[Default Applications]"
			out = append(out, line)
			continue
		}
		if key, value, ok := strings.Cut(trimmed, "="); ok && group == "[Default Applications]" && ours[strings.TrimSpace(key)] {
			if install || strings.TrimSpace(value) == DesktopFile {
				continue // replaced below, or ours to remove
			}
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if install {
		if group == "[Default Applications]" {
			addOurs()
		} else if !sawDefaults {
			if len(out) > 0 && strings.TrimSpace(out[len(out)-1]) != "" {
				out = append(out, "")
			}
			out = append(out, "[Default Applications]")
			addOurs()
		}
	}
	if old == nil && !install {
		return nil
	}
	text := strings.Join(out, "\n")
	if text != "" {
		text += "\n"
	}
	return writeFile(path, []byte(text))
}

// writeFile writes through a temporary file and a rename, so that a
// desktop reading the file never sees half of it.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// refreshCaches runs the desktop's cache tools where they are installed.
func refreshCaches(f Folders) []string {
	var notes []string
	for _, tool := range []struct {
		name string
		dir  string
	}{
		{"update-mime-database", filepath.Join(f.DataHome, "mime")},
		{"update-desktop-database", filepath.Join(f.DataHome, "applications")},
	} {
		if _, err := exec.LookPath(tool.name); err != nil {
			notes = append(notes, tool.name+" is not installed: the desktop picks the changes up at the next login")
			continue
		}
		if out, err := exec.Command(tool.name, tool.dir).CombinedOutput(); err != nil {
			notes = append(notes, fmt.Sprintf("%s %s: %v %s", tool.name, tool.dir, err, strings.TrimSpace(string(out))))
		}
	}
	return notes
}
