package console

import (
	"bytes"
	"mime/multipart"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vttapp/companion/internal/testkit"
	"github.com/vttapp/companion/tests/e2e"
)

type soundStateDoc struct {
	Playing []struct {
		Name   string
		Paused bool
		Track  struct{ Name string }
	}
}

// TestTheConsoleSoundCardPlaysAPlaylist: the game master uploads a sound
// file from the Sound card (a text file named .mp3 is refused with the
// server's reason), makes a playlist of it, plays and pauses it; the
// server's state follows each click and the card shows what plays.
func TestTheConsoleSoundCardPlaysAPlaylist(t *testing.T) {
	t.Parallel()
	srv := e2e.StartServer(t, e2e.ServerOptions{})
	dir := t.TempDir()
	wav, fake := filepath.Join(dir, "Harbour bells.wav"), filepath.Join(dir, "song.mp3")
	os.WriteFile(wav, testkit.WAV(20, 8000), 0o644)
	os.WriteFile(fake, []byte("not a song at all\n"), 0o644)

	p := e2e.NewPage(t, "GM", e2e.DesktopSize)
	p.Navigate(srv.HostURL + "/host/")
	p.OpenConsoleTab("screen")
	p.WaitFor("the Sound card", `(() => { const c = document.getElementById("sound"); return !!c && c.getBoundingClientRect().height > 0; })()`, 10*time.Second)

	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#sound-file"), []string{fake}))
	p.Eval(`document.getElementById("sound-upload-button").click()`)
	p.WaitFor("the refusal", `document.getElementById("sound-msg").textContent.includes("not a sound file")`, 15*time.Second)

	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#sound-file"), []string{wav}))
	p.Eval(`document.getElementById("sound-upload-button").click()`)
	p.WaitFor("the track in the library", `[...document.querySelectorAll("#sound-tracks li")].some((li) => li.innerText.includes("Harbour bells") && li.innerText.includes("0:20"))`, 15*time.Second)

	// A module's sound files join the library from the card.
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "harbour.module")
	fw.Write(testkit.Zip(t, "module.json", `{"id": "harbour-sounds", "name": "Harbour Sounds", "system": "dnd5e"}`,
		"audio/Gulls at dawn.wav", string(testkit.WAV(3, 8000))))
	mw.Close()
	if r := e2e.GmuiDo(t, srv, "POST", "/host/api/import", &form, mw.FormDataContentType()); r.Status != 200 && r.Status != 201 {
		t.Fatalf("import the module: %d %s", r.Status, r.Body)
	}
	p.WaitFor("the module offered", `(() => { const s = document.getElementById("sound-module"); s.dispatchEvent(new FocusEvent("focus")); return [...s.options].some((o) => o.value === "harbour-sounds"); })()`, 15*time.Second)
	p.Eval(`(() => { document.getElementById("sound-module").value = "harbour-sounds"; document.getElementById("sound-module-button").click(); return true; })()`)
	p.WaitFor("the module's sound in the library", `[...document.querySelectorAll("#sound-tracks li")].some((li) => li.innerText.includes("Gulls at dawn") && li.innerText.includes("harbour-sounds"))`, 15*time.Second)

	p.Eval(`(() => {
		[...document.querySelectorAll("#sound-tracks li")].find((li) => li.innerText.includes("Harbour bells")).querySelector("input[name=sound-pick]").click();
		document.getElementById("sound-playlist-name").value = "Harbour";
		document.getElementById("sound-playlist-button").click();
		return true;
	})()`)
	p.WaitFor("the playlist", `[...document.querySelectorAll("#sound-playlists li")].some((li) => li.innerText.includes("Harbour") && li.innerText.includes("1 tracks"))`, 15*time.Second)
	p.ClickElement("Play", `document.querySelector("#sound-playlists button[data-sound=play]")`)
	e2e.WaitAPI(t, srv.HostURL+"/host/api/sound", "the list playing", func(s soundStateDoc) bool {
		return len(s.Playing) == 1 && s.Playing[0].Name == "Harbour" && !s.Playing[0].Paused && s.Playing[0].Track.Name == "Harbour bells"
	})
	p.WaitFor("what plays shown", `document.getElementById("sound-playing").innerText.includes("Harbour bells")`, 10*time.Second)
	p.ClickElement("Pause", `document.querySelector("#sound-playing button[data-sound=pause]")`)
	e2e.WaitAPI(t, srv.HostURL+"/host/api/sound", "the list paused", func(s soundStateDoc) bool { return len(s.Playing) == 1 && s.Playing[0].Paused })
	p.WaitFor("Resume offered", `document.querySelector("#sound-playing button[data-sound=pause]").textContent === "Resume"`, 10*time.Second)
}
