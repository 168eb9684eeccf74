package systems

import (
	"github.com/vttapp/companion/scripting"
	"github.com/vttapp/companion/templates"
)

// registerFilters gives the template filters the same formatting functions
// as companion.format in Lua (registered once per process).
func registerFilters() {
	templates.RegisterFilters(templates.Formatters{
		Signed:   scripting.Signed,
		Modifier: scripting.Modifier,
		Fraction: scripting.Fraction,
		Number:   scripting.Thousands,
		Ordinal:  scripting.Ordinal,
		Join:     scripting.Join,
	})
}
