package routes

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vttapp/companion/internal/testkit"
)

// BenchmarkInstalledClientFiles measures what serving an installed client
// costs against the built-in client, fetched the same way over loopback in
// the same run: its script (a file opened through os.Root under the
// install lock) against the built-in app.js (embedded), and its
// index.html (read and rebased to /client/) against the built-in one.
func BenchmarkInstalledClientFiles(b *testing.B) {
	env := newImportEnv(b)
	script := strings.Repeat("console.log('a line of a bundled client');\n", 2500) // ~100 KB, like a bundle chunk
	archive := testkit.Zip(b, "index.html", `<!doctype html><head><base href="/"></head><script src="main.js"></script>`, "main.js", script)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "client.zip")
	fw.Write(archive)
	mw.Close()
	resp, err := http.Post(env.host.URL+"/host/api/client", mw.FormDataContentType(), &buf)
	if err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("install: %v %v", resp, err)
	}
	resp.Body.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
	get := func(url string) {
		resp, err := client.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d", url, resp.StatusCode)
		}
	}
	// The built-in client is measured on a server without the installed one.
	plain := newEnv(b, envOptions{})
	pairs := [][2]string{
		{env.public.URL + "/client/main.js", plain.srv.URL + "/client/app.js"},
		{env.public.URL + "/client/", plain.srv.URL + "/client/"},
	}
	var installed, embedded [2]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, p := range pairs {
			start := time.Now()
			get(p[0])
			installed[k] += time.Since(start)
			start = time.Now()
			get(p[1])
			embedded[k] += time.Since(start)
		}
	}
	b.ReportMetric(float64(installed[0])/float64(embedded[0]), "x-script")
	b.ReportMetric(float64(installed[1])/float64(embedded[1]), "x-index")
	b.ReportMetric(float64((installed[0] / time.Duration(b.N)).Microseconds()), "µs/installed-script")
}
