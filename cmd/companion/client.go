package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/vttapp/companion/imports"
)

const clientUsage = `usage: companion client install [--data DIR | --host-addr ADDR] FILE|URL
       companion client remove [--data DIR | --host-addr ADDR]`

// runClient implements `companion client install FILE|URL` and `companion
// client remove`, through the running server's host console like
// `companion import`. A URL is offered and accepted at once: the person
// who typed the command is at the device, as on the console's own panel,
// and the server still applies the import URL policy and limits. The
// installed client ({"installed", "name", "version", ...}) is printed on
// stdout.
func runClient(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "install" && args[0] != "remove") {
		fmt.Fprintln(stderr, clientUsage)
		return 2
	}
	action := args[0]
	fs := flag.NewFlagSet("companion client "+action, flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := addHostFlags(fs)
	rest, err := parseInterleaved(fs, args[1:]) // flags before or after FILE, as the other commands take them
	if err != nil {
		return 2
	}
	want := 1
	if action == "remove" {
		want = 0
	}
	if len(rest) != want {
		fmt.Fprintln(stderr, clientUsage)
		return 2
	}
	addr, err := host.resolve()
	if err != nil {
		printError(stderr, err)
		return 1
	}
	var info imports.ClientInfo
	switch {
	case action == "remove":
		err = linkCall(addr, http.MethodDelete, "/host/api/client", "", nil, http.StatusOK, &info)
	case strings.Contains(rest[0], "://"):
		_, err = offerAndFollow(addr, map[string]string{"type": imports.KindClient, "url": rest[0]}, map[string]string{}, stderr)
		if err == nil {
			err = linkCall(addr, http.MethodGet, "/host/api/client", "", nil, http.StatusOK, &info)
		}
	default:
		err = uploadVia(addr, "/host/api/client", rest[0], nil, stderr, &info)
	}
	if err != nil {
		printError(stderr, err)
		return 1
	}
	data, _ := json.Marshal(info)
	fmt.Fprintln(stdout, string(data))
	return 0
}
