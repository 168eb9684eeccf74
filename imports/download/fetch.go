package download

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/vttapp/companion/core"
)

// maxRedirects bounds a redirect chain.
const maxRedirects = 10

// Fetcher downloads sources under the URL policy: the first URL and every
// redirect are checked, a redirect never goes from https to plain http, the
// body is capped and the whole exchange has a deadline.
type Fetcher struct {
	// Client is the base client (its transport and TLS settings are used;
	// its redirect policy and timeout are replaced). Nil means
	// http.DefaultClient.
	Client *http.Client
	// UserAgent is sent with every request.
	UserAgent string

	// own are this server's listeners, never connected to (ownaddrs.go):
	// NewFetcher sets them.
	own *ownListeners

	once  sync.Once
	built *http.Client
}

// NewFetcher is a Fetcher over client (nil: http.DefaultClient) that
// sends userAgent and never connects to this server's own listeners (own,
// their addresses).
func NewFetcher(client *http.Client, userAgent string, own []net.Addr) *Fetcher {
	return &Fetcher{Client: client, UserAgent: userAgent, own: newOwnListeners(own)}
}

// Progress is called with the bytes received so far and the total (-1
// when the server does not say).
type Progress func(done, total int64)

// Fetched describes a completed download.
type Fetched struct {
	Bytes  int64
	SHA256 string
	// FinalURL is the URL after redirects.
	FinalURL string
	// Name is the file name the server suggested or the last path segment.
	Name string
}

// client returns, built once, a copy of the base client that re-checks
// every redirect and never connects to this server's own listeners.
func (f *Fetcher) client() *http.Client {
	f.once.Do(func() {
		base := f.Client
		if base == nil {
			base = http.DefaultClient
		}
		c := *base
		c.Timeout = 0 // the caller's context carries the deadline
		c.Transport = f.own.guard(c.Transport)
		c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return core.Invalidf("too many redirects (more than %d)", maxRedirects)
			}
			return f.checkRedirect(via[len(via)-1].URL, req.URL)
		}
		f.built = &c
	})
	return f.built
}

// checkRedirect applies the URL policy to a redirect target and refuses a
// downgrade from https to plain http, which would let a public https source
// point the device at its own local network.
func (f *Fetcher) checkRedirect(from, to *url.URL) error {
	if _, err := CheckSourceURL(to.String()); err != nil {
		return core.Invalidf("redirect to %s refused: %s", to.Redacted(), core.MessageOf(err))
	}
	if IsHTTPS(from) && !IsHTTPS(to) {
		return core.Invalidf("redirect from https to plain http (%s) refused", to.Redacted())
	}
	if err := f.own.checkText(to); err != nil {
		return core.Invalidf("redirect to %s refused: %s", to.Redacted(), core.MessageOf(err))
	}
	return nil
}

// Fetch downloads raw into w, at most max bytes, within timeout, reporting
// progress. It returns the size and sha256 of what was written.
func (f *Fetcher) Fetch(ctx context.Context, raw string, max int64, timeout time.Duration, w io.Writer, progress Progress) (Fetched, error) {
	u, err := CheckSourceURL(raw)
	if err != nil {
		return Fetched{}, err
	}
	if err := f.own.checkText(u); err != nil {
		return Fetched{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Fetched{}, core.Invalidf("cannot request %s: %v", u.Redacted(), err)
	}
	if f.UserAgent != "" {
		req.Header.Set("User-Agent", f.UserAgent)
	}
	resp, err := f.client().Do(req)
	if err != nil {
		return Fetched{}, fetchError(ctx, u, err, timeout)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Fetched{}, core.Invalidf("%s answered %s", resp.Request.URL.Redacted(), resp.Status)
	}
	if resp.ContentLength > max {
		return Fetched{}, core.TooLargef("%s is %d bytes; at most %d are accepted", u.Redacted(), resp.ContentLength, max)
	}
	h := sha256.New()
	cw := &countingWriter{w: io.MultiWriter(w, h), total: resp.ContentLength, progress: progress}
	n, err := io.Copy(cw, io.LimitReader(resp.Body, max+1))
	if err != nil {
		return Fetched{}, fetchError(ctx, u, err, timeout)
	}
	if n > max {
		return Fetched{}, core.TooLargef("%s is larger than %d bytes", u.Redacted(), max)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return Fetched{}, core.Invalidf("%s: download truncated (%d of %d bytes)", u.Redacted(), n, resp.ContentLength)
	}
	if progress != nil {
		progress(n, resp.ContentLength)
	}
	return Fetched{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil)), FinalURL: resp.Request.URL.String(), Name: fileName(resp)}, nil
}

// fetchError turns a transport failure into a message a person can act on.
func fetchError(ctx context.Context, u *url.URL, err error, timeout time.Duration) error {
	var ce *core.Error
	if errors.As(err, &ce) {
		return ce // a refused redirect
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return core.Invalidf("%s did not answer within %s", u.Redacted(), timeout)
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return core.Invalidf("download of %s was cancelled", u.Redacted())
	}
	return core.Invalidf("cannot download %s: %v", u.Redacted(), unwrapURLError(err))
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// countingWriter reports progress at most every 64 KiB.
type countingWriter struct {
	w        io.Writer
	done     int64
	last     int64
	total    int64
	progress Progress
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.done += int64(n)
	if c.progress != nil && c.done-c.last >= 64<<10 {
		c.last = c.done
		c.progress(c.done, c.total)
	}
	return n, err
}

// fileName is the name a download should be known by.
func fileName(resp *http.Response) string {
	if cd := resp.Header.Get("Content-Disposition"); cd != "" {
		if _, params, err := parseDisposition(cd); err == nil && params["filename"] != "" {
			return params["filename"]
		}
	}
	return lastSegment(resp.Request.URL)
}

func lastSegment(u *url.URL) string {
	p := u.Path
	for len(p) > 0 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// CheckSHA256 compares a download's digest with the one a manifest gives.
func CheckSHA256(want, got string) error {
	if want == "" {
		return nil
	}
	if !equalFoldASCII(want, got) {
		return core.Invalidf("the download's sha256 is %s, but the manifest says %s; the file is damaged or was replaced", got, want)
	}
	return nil
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y {
			return false
		}
	}
	return true
}
