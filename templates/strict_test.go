package templates

import "testing"

func TestStrictSource(t *testing.T) {
	for src, want := range map[string]string{
		"{{ view.name }}":                  `{{ view.name|companion_strict:"t.html:1 view.name" }}`,
		"a\n{{view.x|upper}} {{ y.0 }}":    "a\n{{view.x|companion_strict:\"t.html:2 view.x\"|upper}} {{ y.0|companion_strict:\"t.html:2 y.0\" }}",
		"{{ view.x|default:\"-\" }}":       "{{ view.x|default:\"-\" }}",
		"{{ view.x|default_if_none:1 }}":   "{{ view.x|default_if_none:1 }}",
		"{{ \"text\" }}{{ 3 }}{{ a + b }}": "{{ \"text\" }}{{ 3 }}{{ a + b }}",
		"{{ true }}{{ None }}":             "{{ true }}{{ None }}",
		"{% if view.x %}{% endif %}":       "{% if view.x %}{% endif %}",
		"{{- view.x -}}":                   `{{- view.x|companion_strict:"t.html:1 view.x" -}}`,
	} {
		if got := strictSource("t.html", src); got != want {
			t.Errorf("%q\n got %q\nwant %q", src, got, want)
		}
	}
}
