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
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	want := 1
	if action == "remove" {
		want = 0
	}
	if fs.NArg() != want {
		fmt.Fprintln(stderr, clientUsage)
		return 2
	}
	addr, err := host.resolve()
	if err != nil {
		fmt.Fprintln(stderr, err.Error())
		return 1
	}
	var info imports.ClientInfo
	switch {
	case action == "remove":
		err = linkCall(addr, http.MethodDelete, "/host/api/client", "", nil, http.StatusOK, &info)
	case strings.Contains(fs.Arg(0), "://"):
		_, err = offerAndFollow(addr, map[string]string{"type": imports.KindClient, "url": fs.Arg(0)}, map[string]string{}, stderr)
		if err == nil {
			err = linkCall(addr, http.MethodGet, "/host/api/client", "", nil, http.StatusOK, &info)
		}
	default:
		err = uploadVia(addr, "/host/api/client", fs.Arg(0), nil, stderr, &info)
	}
	if err != nil {
		fmt.Fprintln(stderr, err.Error())
		return 1
	}
	data, _ := json.Marshal(info)
	fmt.Fprintln(stdout, string(data))
	return 0
}
