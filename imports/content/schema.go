package content

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vttapp/companion/core"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schemas holds the JSON Schemas of module.json, of a package manifest and
// of the elements of pages.json, encounters.json, groups.json and
// assets.json (schemas/*.schema.json).
//
//go:embed schemas/*.json
var Schemas embed.FS

var (
	schemaOnce    sync.Once
	moduleSchema  *jsonschema.Schema
	packageSchema *jsonschema.Schema
	// librarySchemas validate one element of a library file, by file name.
	librarySchemas = map[string]*jsonschema.Schema{}
	schemaErr      error
)

// libraryFiles are the library files of an archive and their schemas.
var libraryFiles = map[string]string{
	PagesFile: "page.schema.json", EncountersFile: "encounter.schema.json",
	GroupsFile: "group.schema.json", AssetsFile: "asset.schema.json", TablesFile: "table.schema.json",
}

func compileSchemas() {
	c := jsonschema.NewCompiler()
	for _, name := range []string{"module.schema.json", "package.schema.json", "page.schema.json", "encounter.schema.json", "group.schema.json", "asset.schema.json", "table.schema.json"} {
		data, err := Schemas.ReadFile("schemas/" + name)
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			schemaErr = fmt.Errorf("%s: %w", name, err)
			return
		}
		if err := c.AddResource(name, doc); err != nil {
			schemaErr = err
			return
		}
	}
	if moduleSchema, schemaErr = c.Compile("module.schema.json"); schemaErr != nil {
		return
	}
	if packageSchema, schemaErr = c.Compile("package.schema.json"); schemaErr != nil {
		return
	}
	for file, name := range libraryFiles {
		var sch *jsonschema.Schema
		if sch, schemaErr = c.Compile(name); schemaErr != nil {
			return
		}
		librarySchemas[file] = sch
	}
}

// validate checks a JSON document against one of the embedded schemas and
// returns every violation in one message, e.g.
// "module.json: at '/tags/0': got number, want string".
func validate(what string, schema func() *jsonschema.Schema, data []byte) error {
	schemaOnce.Do(compileSchemas)
	if schemaErr != nil {
		return core.Internal(schemaErr)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return core.Invalidf("%s is not valid JSON: %v", what, err)
	}
	err = schema().Validate(inst)
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return core.Invalidf("%s: %s", what, describeViolations(ve))
	}
	if err != nil {
		return core.Invalidf("%s: %v", what, err)
	}
	return nil
}

var printer = message.NewPrinter(language.English)

// describeViolations flattens the leaves of a validation error.
func describeViolations(ve *jsonschema.ValidationError) string {
	var lines []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			at := "/" + strings.Join(e.InstanceLocation, "/")
			lines = append(lines, fmt.Sprintf("at '%s': %s", at, e.ErrorKind.LocalizedString(printer)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(lines)
	return strings.Join(lines, "; ")
}

// ValidateModuleJSON checks module.json against the module schema (contract
// 2.1: no properties beyond the listed ones, semantic versions).
func ValidateModuleJSON(data []byte) error {
	return validate("module.json", func() *jsonschema.Schema { return moduleSchema }, data)
}

// ValidatePackageJSON checks a package manifest against its schema.
func ValidatePackageJSON(data []byte) error {
	return validate("package manifest", func() *jsonschema.Schema { return packageSchema }, data)
}

// validateLibraryItem checks one element of a library file (pages.json...)
// against its schema; where names the element in messages.
func validateLibraryItem(file, where string, data []byte) error {
	return validate(where, func() *jsonschema.Schema { return librarySchemas[file] }, data)
}
