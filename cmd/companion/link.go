package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vttapp/companion/imports"
)

// runLink implements `companion link check LINK`: it prints the parsed
// import request as JSON and exits 0, or prints the link's error message
// (contract 4.10) on stderr and exits 1.
func runLink(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "check" {
		args = args[1:]
	}
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: companion link check LINK")
		return 2
	}
	src, err := imports.ParseLink(args[0])
	if err != nil {
		fmt.Fprintln(stderr, err.Error()) // the contract's words, as a link shows them
		return 1
	}
	out := struct {
		Action   string `json:"action"`
		Manifest string `json:"manifest,omitempty"`
		URL      string `json:"url,omitempty"`
	}{"import", src.Manifest, src.URL}
	data, _ := json.Marshal(out)
	fmt.Fprintln(stdout, string(data))
	return 0
}

// runOpen implements `companion open LINK`: the link is handed to the
// running server's host console, where it waits as an offer for the person
// at the device. It prints the offer as JSON.
func runOpen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("companion open", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := addHostFlags(fs)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "usage: companion open [--data DIR | --host-addr ADDR] LINK")
		return 2
	}
	// Check the link here first, so that a bad link is explained even when
	// no server is running.
	if _, err := imports.ParseLink(rest[0]); err != nil {
		printError(stderr, err)
		return 1
	}
	addr, err := host.resolve()
	if err != nil {
		printError(stderr, err)
		return 1
	}
	body, _ := json.Marshal(map[string]string{"link": rest[0]})
	var offer imports.Offer
	if err := linkCall(addr, http.MethodPost, "/host/api/offers", "application/json", bytes.NewReader(body), http.StatusCreated, &offer); err != nil {
		printError(stderr, err)
		return 1
	}
	printResult(stdout, offer, func(w io.Writer) { describeOffer(w, offer) })
	return 0
}

// runImport implements `companion import FILE|URL`: a file is uploaded to
// the running server's host console, a URL is downloaded by the server
// (under its URL policy and limits). A progress bar is drawn on stderr;
// the result {"kind","id","name"} is printed on stdout.
func runImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("companion import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := addHostFlags(fs)
	destination := fs.String("destination", "", "module or campaign id that receives a loose collection or a map (default: the primary campaign)")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "usage: companion import [--data DIR | --host-addr ADDR] [--destination ID] FILE|URL")
		return 2
	}
	addr, err := host.resolve()
	if err != nil {
		printError(stderr, err)
		return 1
	}
	target := rest[0]
	var res imports.Result
	if strings.Contains(target, "://") {
		res, err = importURLVia(addr, target, *destination, stderr)
	} else {
		res, err = importFileVia(addr, target, *destination, stderr)
	}
	if err != nil {
		printError(stderr, err)
		return 1
	}
	printResult(stdout, res, func(w io.Writer) { describeImport(w, res) })
	return 0
}

// importFileVia uploads a file as multipart field "file", streaming it with
// an upload progress bar.
func importFileVia(hostAddr, path, destination string, stderr io.Writer) (imports.Result, error) {
	var fields map[string]string
	if destination != "" {
		fields = map[string]string{"destination": destination}
	}
	var res imports.Result
	err := uploadVia(hostAddr, "/host/api/import", path, fields, stderr, &res)
	return res, err
}

// uploadVia posts a file to a host API path as multipart field "file",
// after the given fields, streaming it with an upload progress bar; the
// answer (201) is decoded into out.
func uploadVia(hostAddr, apiPath, path string, fields map[string]string, stderr io.Writer, out any) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", path, errors.Unwrap(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		return fmt.Errorf("%s is not a file", path)
	}
	bar := newLinkBar(stderr, "upload")
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := func() error {
			for name, value := range fields {
				if err := mw.WriteField(name, value); err != nil {
					return err
				}
			}
			part, err := mw.CreateFormFile("file", filepath.Base(path))
			if err != nil {
				return err
			}
			if _, err := io.Copy(part, &linkProgressReader{r: f, bar: bar, total: info.Size()}); err != nil {
				return err
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	err = linkCall(hostAddr, http.MethodPost, apiPath, mw.FormDataContentType(), pr, http.StatusCreated, out)
	bar.finish()
	return err
}

// importURLVia asks the server to fetch a URL: it offers it on the host
// console, accepts it at once (this is the person at the device), and
// follows the download's progress until it is installed.
func importURLVia(hostAddr, url, destination string, stderr io.Writer) (imports.Result, error) {
	return offerAndFollow(hostAddr, map[string]string{"url": url}, map[string]string{"destination": destination}, stderr)
}

// offerAndFollow posts an offer, accepts it and follows its download until
// it settles; the installed result is returned.
func offerAndFollow(hostAddr string, offerBody, acceptBody map[string]string, stderr io.Writer) (imports.Result, error) {
	body, _ := json.Marshal(offerBody)
	var offer imports.Offer
	if err := linkCall(hostAddr, http.MethodPost, "/host/api/offers", "application/json", bytes.NewReader(body), http.StatusCreated, &offer); err != nil {
		return imports.Result{}, err
	}
	accept, _ := json.Marshal(acceptBody)
	if err := linkCall(hostAddr, http.MethodPost, "/host/api/offers/"+offer.ID+"/accept", "application/json", bytes.NewReader(accept), http.StatusAccepted, &offer); err != nil {
		return imports.Result{}, err
	}
	bar := newLinkBar(stderr, "download")
	defer bar.finish()
	for {
		if err := linkCall(hostAddr, http.MethodGet, "/host/api/offers/"+offer.ID, "", nil, http.StatusOK, &offer); err != nil {
			return imports.Result{}, err
		}
		bar.show(offer.Progress.Done, offer.Progress.Total)
		switch offer.Status {
		case imports.StatusInstalled:
			if offer.Result == nil {
				return imports.Result{}, errors.New("the server reported no result")
			}
			return *offer.Result, nil
		case imports.StatusFailed, imports.StatusDeclined:
			return imports.Result{}, fmt.Errorf("import %s: %s", offer.Status, offer.Error)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hostTarget is how a command that talks to the running server finds its
// host console: --host-addr, else COMPANION_HOST_ADDR as `companion serve`
// reads it (unless --data is given), else where the server running with
// --data (COMPANION_DATA, or the default data folder) listens (it may have
// taken another port); never a guess. --data is there because backup, restore, launch and serve
// take it: a game master who runs their server with --data gives the same
// folder to import into it.
type hostTarget struct {
	fs       *flag.FlagSet
	hostAddr *string
	dataDir  *string
}

// addHostFlags declares --host-addr and --data on fs.
func addHostFlags(fs *flag.FlagSet) *hostTarget {
	return &hostTarget{
		fs:       fs,
		hostAddr: fs.String("host-addr", "", "address of the running server's host console (default: COMPANION_HOST_ADDR, else the server running with --data)"),
		dataDir:  fs.String("data", envOr("COMPANION_DATA", defaultDataDir()), "data folder of the running server to talk to"),
	}
}

// resolve is the host console to talk to, once the flags are parsed: the
// one given (--host-addr, COMPANION_HOST_ADDR), else that of the server
// whose server.json is in the data folder (--data, COMPANION_DATA, the
// default one). With neither, no server is assumed at the default address:
// whatever listens there may be another data folder's server, and the
// content would go into it.
func (h *hostTarget) resolve() (string, error) {
	if *h.hostAddr != "" {
		return *h.hostAddr, nil
	}
	dataGiven := false
	h.fs.Visit(func(f *flag.Flag) { dataGiven = dataGiven || f.Name == "data" })
	if v := os.Getenv("COMPANION_HOST_ADDR"); v != "" && !dataGiven {
		return dialAddr(v), nil
	}
	if inst, ok := runningInstance(*h.dataDir); ok {
		return dialAddr(inst.HostAddr), nil
	}
	start := "companion serve"
	if dataGiven || os.Getenv("COMPANION_DATA") != "" {
		start += " --data " + *h.dataDir
	}
	return "", fmt.Errorf("companion is not running with the data folder %s (start it with '%s', or give --data or --host-addr)", *h.dataDir, start)
}

// linkCall sends a request to the host console and decodes the answer into
// out when it has the wanted status; otherwise the server's message is the
// error.
func linkCall(hostAddr, method, path, contentType string, body io.Reader, want int, out any) error {
	req, err := http.NewRequest(method, "http://"+hostAddr+path, body)
	if err != nil {
		return fmt.Errorf("bad host console address %q: %v", hostAddr, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("companion is not running on %s (start it with 'companion serve', or give --host-addr): %v", hostAddr, errors.Unwrap(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("reading the answer of %s: %v", hostAddr, err)
	}
	if resp.StatusCode != want {
		var msg struct {
			Message string `json:"message"`
			Error   string `json:"error"`
		}
		if json.Unmarshal(data, &msg) == nil && (msg.Message != "" || msg.Error != "") {
			return errors.New(msg.Message + msg.Error)
		}
		return fmt.Errorf("%s %s answered %s", method, path, resp.Status)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("unexpected answer from %s: %v", hostAddr, err)
	}
	return nil
}

// linkBar draws a one-line progress bar, redrawn at most every 100 ms, for
// a person only (output.go: a terminal, or COMPANION_OUTPUT=text): for a
// script it draws nothing.
type linkBar struct {
	w     io.Writer
	on    bool
	label string
	last  time.Time
	drawn bool
	done  int64
	total int64
}

const linkBarWidth = 30

// newLinkBar is a bar on w (stderr), drawn when a person reads w.
func newLinkBar(w io.Writer, label string) *linkBar {
	return &linkBar{w: w, on: wantsText(w), label: label}
}

func (b *linkBar) show(done, total int64) {
	b.done, b.total = done, total
	if !b.on {
		return
	}
	if time.Since(b.last) < 100*time.Millisecond && (total <= 0 || done < total) {
		return
	}
	b.last = time.Now()
	b.draw()
}

func (b *linkBar) draw() {
	b.drawn = true
	if b.total <= 0 {
		fmt.Fprintf(b.w, "\r%s %s", b.label, linkBytes(b.done))
		return
	}
	frac := float64(b.done) / float64(b.total)
	if frac > 1 {
		frac = 1
	}
	filled := int(frac * linkBarWidth)
	fmt.Fprintf(b.w, "\r%s [%s%s] %3.0f%% %s / %s", b.label, strings.Repeat("#", filled), strings.Repeat(".", linkBarWidth-filled),
		frac*100, linkBytes(b.done), linkBytes(b.total))
}

// finish draws the last state and ends the line.
func (b *linkBar) finish() {
	if b.on && (b.drawn || b.done > 0) {
		b.draw()
		fmt.Fprintln(b.w)
	}
}

func linkBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// linkProgressReader reports the bytes read through it to a bar.
type linkProgressReader struct {
	r     io.Reader
	bar   *linkBar
	total int64
	n     int64
}

func (p *linkProgressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	p.bar.show(p.n, p.total)
	return n, err
}
