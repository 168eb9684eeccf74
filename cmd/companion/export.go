package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/imports"
)

// exportResult is what `companion export` prints.
type exportResult struct {
	Kind  string           `json:"kind"`
	ID    string           `json:"id"`
	File  string           `json:"file"`
	Bytes int64            `json:"bytes"`
	Needs []imports.Result `json:"needs"`
}

// runExport implements `companion export module|campaign [ID]`: the
// running server streams the archive (GET /host/api/{modules|campaigns}/
// {id}/export) into a file; a campaign without an id is the primary one.
// The file is written under a temporary name and renamed once whole.
func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("companion export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := addHostFlags(fs)
	output := fs.String("o", "", "the file to write (default: the archive's own name, <slug>.module or <slug>.campaign, in this folder)")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) < 1 || len(rest) > 2 || (rest[0] != "module" && rest[0] != "campaign") || (rest[0] == "module" && len(rest) != 2) {
		fmt.Fprintln(stderr, "usage: companion export [--data DIR | --host-addr ADDR] [-o FILE] module ID | campaign [ID]")
		return 2
	}
	addr, err := host.resolve()
	if err != nil {
		printError(stderr, err)
		return 1
	}
	kind, id := rest[0], ""
	if len(rest) == 2 {
		id = rest[1]
	}
	res, err := exportVia(addr, kind, id, *output, stderr)
	if err != nil {
		printError(stderr, err)
		return 1
	}
	for _, n := range res.Needs {
		fmt.Fprintf(stderr, "note: this %s points at entities of %s '%s' (id %s), which the archive does not carry: export it too (companion export %s %s)\n",
			kind, n.Kind, n.Name, n.ID, n.Kind, n.ID)
	}
	printResult(stdout, res, func(w io.Writer) { describeExport(w, res) })
	return 0
}

// parseInterleaved parses flags given before, between or after the
// positional arguments, and returns those.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// exportVia downloads an export from the host console into a file.
func exportVia(hostAddr, kind, id, output string, stderr io.Writer) (exportResult, error) {
	if kind == "campaign" && id == "" {
		var primary struct {
			Campaign struct {
				ID string `json:"id"`
			} `json:"campaign"`
		}
		if err := linkCall(hostAddr, http.MethodGet, "/host/api/campaign", "", nil, http.StatusOK, &primary); err != nil {
			return exportResult{}, err
		}
		id = primary.Campaign.ID
	}
	resp, err := http.Get("http://" + hostAddr + "/host/api/" + kind + "s/" + url.PathEscape(id) + "/export")
	if err != nil {
		return exportResult{}, fmt.Errorf("companion is not running on %s (start it with 'companion serve', or give --host-addr): %v", hostAddr, errors.Unwrap(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return exportResult{}, answerError(resp)
	}
	res := exportResult{Kind: kind, ID: id, Needs: []imports.Result{}}
	if needs := resp.Header.Get("Companion-Needs"); needs != "" {
		_ = json.Unmarshal([]byte(needs), &res.Needs)
	}
	if output == "" {
		_, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
		output = filepath.Base(params["filename"])
		if output == "" || output == "." || output == ".." || strings.ContainsAny(output, `/\`) {
			output = kind + "." + kind
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(output), ".companion-export-*")
	if err != nil {
		return exportResult{}, fmt.Errorf("cannot write next to %s: %v", output, errors.Unwrap(err))
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	bar := newLinkBar(stderr, "export")
	n, err := io.Copy(tmp, &linkProgressReader{r: resp.Body, bar: bar, total: -1})
	bar.finish()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return exportResult{}, fmt.Errorf("the export broke off after %s: %v (nothing was written to %s)", linkBytes(n), err, output)
	}
	if err := os.Rename(tmp.Name(), output); err != nil {
		return exportResult{}, err
	}
	res.File, res.Bytes = output, n
	return res, nil
}

// answerError is the host console's message of a refused request.
func answerError(resp *http.Response) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var msg struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &msg) == nil && msg.Message != "" {
		return errors.New(msg.Message)
	}
	return fmt.Errorf("the server answered %s", resp.Status)
}
