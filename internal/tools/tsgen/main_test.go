package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestWireGenIsCurrent fails when web/client/src/wire.gen.ts is not what
// the served description generates: a Go shape changed and the client's
// types were not regenerated (go generate ./internal/tools/tsgen).
func TestWireGenIsCurrent(t *testing.T) {
	want, err := generateFromServer()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../web/client/src/wire.gen.ts")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("web/client/src/wire.gen.ts is stale: run go generate ./internal/tools/tsgen (and npm run check in web/client)")
	}
}

// TestHostTypesAreCurrent fails when web/client/src/host/types.ts is not
// what the host API's description generates: a handler's Go type changed
// and the console's types were not regenerated.
func TestHostTypesAreCurrent(t *testing.T) {
	want, err := generateHost()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../web/client/src/host/types.ts")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("web/client/src/host/types.ts is stale: run go generate ./internal/tools/tsgen (and npm run check in web/client)")
	}
	for _, name := range []string{"HostCampaign", "HostSeatRow", "HostClient", "HostJoin", "Offer", "ImportResult", "ModuleUpdate"} {
		if !bytes.Contains(want, []byte("export interface "+name+" {")) {
			t.Errorf("the host types lack %s, which the console reads", name)
		}
	}
}

// TestGenerateTypes: optional and nullable properties, unions, enums,
// arrays of unions and the events map come out as TypeScript says them.
func TestGenerateTypes(t *testing.T) {
	doc := `{"components":{"schemas":{
	  "A":{"type":"object","description":"an A","required":["id","n"],"additionalProperties":false,"properties":{
	    "id":{"type":"string"},"n":{"type":["number","null"]},"s":{"enum":["x","y"]},
	    "l":{"type":"array","items":{"anyOf":[{"$ref":"#/components/schemas/B"},{"type":"null"}]}},
	    "m":{"type":"object","additionalProperties":{"type":"integer"}},"any":{},"bad-key":{"type":"boolean"}}},
	  "B":{"const":true},
	  "P":{"type":"object","required":["id"],"properties":{"id":{"type":"string"}},"additionalProperties":{}},
	  "Monster":{"type":"object","x-system-kind":"monster","properties":{}}}},
	 "x-events":{"bEvent":{"schema":"#/components/schemas/B","description":"when"}},
	 "x-requests":{"aRequest":{"schema":"#/components/schemas/B","description":"asks"}},
	 "x-replies":{"aRequest":{"schema":"#/components/schemas/A","description":"answered"}}}`
	out, err := generate([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"/** an A */\nexport interface A {\n",
		"  id: string;\n", "  n: number | null;\n", "  s?: \"x\" | \"y\";\n", "  l?: (B | null)[];\n",
		"  m?: Record<string, number>;\n", "  any?: unknown;\n", "  \"bad-key\"?: boolean;\n",
		"export type B = true;\n", "export interface P {\n  id: string;\n  [key: string]: unknown;\n}\n", "export interface ServerEvents {\n  /** when */\n  bEvent: B;\n",
		"export interface ClientRequests {\n  /** asks */\n  aRequest: B;\n",
		"export interface ClientReplies {\n  /** answered */\n  aRequest: A;\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "Monster") {
		t.Error("a system's kind was generated")
	}
}
