// Package discovery advertises the server on the local network by
// multicast DNS and DNS-SD (RFC 6762, RFC 6763), so that players type a
// name such as companion.local instead of an address, and browsers and
// apps that list _http._tcp services find it.
//
// It is a small responder of its own, on golang.org/x/net: dnsmessage
// packs the records and ipv4 says on which interface each query arrived,
// which is what "answer only on the interfaces the player listener is
// bound to" needs (an interface-blind responder would answer a query from
// any network with the addresses of another). It probes its name before
// claiming it (a second Companion on the network becomes companion-2),
// announces itself twice, answers queries, and says goodbye on Close. It
// never sends on an interface it was not given, nor on one that cannot
// carry multicast (Linux's lo, usually).
package discovery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// Service is what one advertisement tells the network.
type Service struct {
	// Instance is the DNS-SD instance name browsers list, such as
	// "Companion"; it may hold spaces but no dot.
	Instance string
	// Host is the host label, without .local: "companion" answers
	// companion.local.
	Host string
	Port int
	// Text is the TXT record, key=value strings such as "path=/client/".
	Text []string
}

// Target is one interface to advertise on and the addresses of it that the
// advertised listener answers on.
type Target struct {
	Interface net.Interface
	Addrs     []net.IP
}

// Options tune an advertisement; the zero value is the protocol's.
type Options struct {
	Log *slog.Logger
	// ProbeInterval is the time between the three probes (250 ms).
	ProbeInterval time.Duration
	// AnnounceInterval is the time between the two announcements (1 s).
	AnnounceInterval time.Duration
}

// ErrNoInterface is returned when none of the targets can carry multicast.
var ErrNoInterface = errors.New("no interface of the player listener can carry multicast")

// maxRenames bounds how often a taken name is replaced (companion-2 ...).
const maxRenames = 9

// Advertiser is a running advertisement.
type Advertiser struct {
	svc     Service
	n       names
	targets map[int]Target // by interface index
	link    link
	opt     Options
	// owned is false while the name is being probed: queries are not
	// answered and responses naming it are conflicts.
	mu       sync.Mutex
	owned    bool
	conflict bool

	closeOnce sync.Once
	done      chan struct{}
	wg        sync.WaitGroup
}

// Advertise probes the service's names on the targets that can carry
// multicast, renames on conflict, announces, and answers queries until
// Close. It returns once the names are claimed (about a second), so that
// Service tells the name the network now knows. ctx bounds the probing
// only.
func Advertise(ctx context.Context, svc Service, targets []Target, opt Options) (*Advertiser, error) {
	if err := svc.check(); err != nil {
		return nil, err
	}
	usable := usableTargets(targets, opt.log())
	if len(usable) == 0 {
		return nil, ErrNoInterface
	}
	l, err := openMulticast(usable)
	if err != nil {
		return nil, fmt.Errorf("mDNS socket: %w", err)
	}
	a := newAdvertiser(svc, usable, l, opt)
	if err := a.claim(ctx); err != nil {
		a.link.close()
		a.wg.Wait()
		return nil, err
	}
	a.announce()
	return a, nil
}

// usableTargets keeps the targets that are up and can carry multicast.
func usableTargets(targets []Target, log *slog.Logger) []Target {
	var out []Target
	for _, t := range targets {
		f := t.Interface.Flags
		switch {
		case f&net.FlagUp == 0:
			log.Debug("mDNS: interface is down, not advertised there", "interface", t.Interface.Name)
		case f&net.FlagMulticast == 0:
			log.Info("mDNS: interface cannot carry multicast, not advertised there", "interface", t.Interface.Name)
		case len(t.Addrs) == 0:
			log.Debug("mDNS: interface has no address of the listener, not advertised there", "interface", t.Interface.Name)
		default:
			out = append(out, t)
		}
	}
	return out
}

func newAdvertiser(svc Service, targets []Target, l link, opt Options) *Advertiser {
	if opt.ProbeInterval <= 0 {
		opt.ProbeInterval = 250 * time.Millisecond
	}
	if opt.AnnounceInterval <= 0 {
		opt.AnnounceInterval = time.Second
	}
	a := &Advertiser{svc: svc, n: namesOf(svc), targets: map[int]Target{}, link: l, opt: opt, done: make(chan struct{})}
	for _, t := range targets {
		a.targets[t.Interface.Index] = t
	}
	a.wg.Add(1)
	go a.serve()
	return a
}

func (o Options) log() *slog.Logger {
	if o.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Log
}

// Service returns what is advertised: the name may differ from the one
// asked for when another device on the network had it.
func (a *Advertiser) Service() Service {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.svc
}

// Interfaces names the interfaces the advertisement is on.
func (a *Advertiser) Interfaces() []string {
	var out []string
	for _, t := range a.targets {
		out = append(out, t.Interface.Name)
	}
	return out
}

// Close says goodbye (the records with a zero TTL, so that caches forget
// them at once) and stops answering.
func (a *Advertiser) Close() {
	a.closeOnce.Do(func() {
		a.mu.Lock()
		owned := a.owned
		a.mu.Unlock()
		if owned {
			a.sendAll(0)
		}
		close(a.done)
		a.link.close()
		a.wg.Wait()
	})
}

// claim probes the names three times (RFC 6762 section 8.1); a response
// that names them in the meantime is a conflict, and the next name is
// tried: companion-2, companion-3...
func (a *Advertiser) claim(ctx context.Context) error {
	// A random first delay keeps devices powered on together from probing
	// in step.
	if err := sleep(ctx, time.Duration(rand.Int64N(int64(a.opt.ProbeInterval)))); err != nil {
		return err
	}
	for attempt := 0; attempt <= maxRenames; attempt++ {
		clean := true
		for i := 0; i < 3 && clean; i++ {
			a.sendProbe()
			if err := sleep(ctx, a.opt.ProbeInterval); err != nil {
				return err
			}
			a.mu.Lock()
			clean = !a.conflict
			a.mu.Unlock()
		}
		if clean {
			a.mu.Lock()
			a.owned = true
			a.mu.Unlock()
			return nil
		}
		a.opt.log().Info("mDNS: the name is taken on the network; trying the next", "name", strings.TrimSuffix(a.n.host, "."))
		a.mu.Lock()
		a.svc = renamed(a.svc, attempt+2)
		a.n = namesOf(a.svc)
		a.conflict = false
		a.mu.Unlock()
	}
	return fmt.Errorf("mDNS: %d names after %s.local are taken on the network", maxRenames, a.svc.Host)
}

// renamed is the service under its nth name: host companion-n, instance
// "Companion (n)" (the base taken from the original names).
func renamed(s Service, n int) Service {
	base := s.Host
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		if _, err := strconv.Atoi(base[i+1:]); err == nil {
			base = base[:i]
		}
	}
	inst := s.Instance
	if i := strings.LastIndex(inst, " ("); i > 0 && strings.HasSuffix(inst, ")") {
		inst = inst[:i]
	}
	s.Host = fmt.Sprintf("%s-%d", base, n)
	s.Instance = fmt.Sprintf("%s (%d)", inst, n)
	return s
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// announce sends every record twice, a second apart (RFC 6762 section
// 8.3); the second goes out in the background.
func (a *Advertiser) announce() {
	a.sendAll(1)
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		select {
		case <-a.done:
		case <-time.After(a.opt.AnnounceInterval):
			a.sendAll(1)
		}
	}()
}

// sendAll multicasts every record on every interface, with TTLs scaled by
// ttlScale (0: goodbye).
func (a *Advertiser) sendAll(ttlScale uint32) {
	a.mu.Lock()
	svc, n := a.svc, a.n
	a.mu.Unlock()
	for idx, t := range a.targets {
		r := records{svc: svc, n: n, addrs: t.Addrs, ttlScale: ttlScale, flush: true}
		msg, err := r.build(dnsmessage.Header{Response: true, Authoritative: true}, nil, r.all(), nil, nil)
		if err == nil {
			err = a.link.sendMulticast(msg, idx)
		}
		if err != nil {
			a.opt.log().Warn("mDNS: announcement not sent", "interface", t.Interface.Name, "err", err)
		}
	}
}

// sendProbe asks for the names with the records it would claim in the
// authority section (RFC 6762 section 8.2).
func (a *Advertiser) sendProbe() {
	a.mu.Lock()
	svc, n := a.svc, a.n
	a.mu.Unlock()
	for idx, t := range a.targets {
		r := records{svc: svc, n: n, addrs: t.Addrs, ttlScale: 1}
		qs := []dnsmessage.Question{
			{Name: mustName(n.host), Type: dnsmessage.TypeALL, Class: dnsmessage.ClassINET | unicastResponse},
			{Name: mustName(n.instance), Type: dnsmessage.TypeALL, Class: dnsmessage.ClassINET | unicastResponse},
		}
		msg, err := r.build(dnsmessage.Header{}, qs, nil, append(r.address(), r.srv()), nil)
		if err == nil {
			err = a.link.sendMulticast(msg, idx)
		}
		if err != nil {
			a.opt.log().Warn("mDNS: probe not sent", "interface", t.Interface.Name, "err", err)
		}
	}
}

// serve reads packets until Close, answering queries that arrive on an
// interface of the advertisement and watching responses for conflicts.
func (a *Advertiser) serve() {
	defer a.wg.Done()
	buf := make([]byte, 9000)
	for {
		n, ifIndex, src, err := a.link.read(buf)
		if err != nil {
			select {
			case <-a.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		t, ours := a.targets[ifIndex]
		if !ours {
			continue // another network: not ours to answer
		}
		a.handle(buf[:n], t, src)
	}
}

// handle answers one packet that arrived on target t from src.
func (a *Advertiser) handle(packet []byte, t Target, src *net.UDPAddr) {
	var p dnsmessage.Parser
	h, err := p.Start(packet)
	if err != nil || h.OpCode != 0 || h.RCode != 0 {
		return // RFC 6762 section 18: other opcodes and rcodes are ignored
	}
	a.mu.Lock()
	svc, n, owned := a.svc, a.n, a.owned
	a.mu.Unlock()
	if h.Response {
		// While probing, we send queries only: a response naming us is
		// another device's.
		if !owned && namesUs(&p, n) {
			a.mu.Lock()
			a.conflict = true
			a.mu.Unlock()
		}
		return
	}
	if !owned {
		return
	}
	questions, err := p.AllQuestions()
	if err != nil || len(questions) == 0 {
		return
	}
	known := knownAnswers(&p)
	legacy := src.Port != mdnsPort
	r := records{svc: svc, n: n, addrs: t.Addrs, ttlScale: 1, flush: !legacy}
	if legacy {
		r.maxTTL = legacyTTL
	}
	var answers, extra []resource
	for _, q := range questions {
		ans, ext := r.answer(q)
		if ans = withoutKnown(ans, known); len(ans) > 0 {
			answers, extra = append(answers, ans...), append(extra, ext...)
		}
	}
	if len(answers) == 0 {
		return
	}
	hdr := dnsmessage.Header{Response: true, Authoritative: true}
	var echo []dnsmessage.Question
	if legacy {
		// A one-shot resolver matches the answer by id and question
		// (RFC 6762 section 6.7).
		hdr.ID = h.ID
		for _, q := range questions {
			q.Class &^= unicastResponse
			echo = append(echo, q)
		}
	}
	msg, err := r.build(hdr, echo, answers, nil, extra)
	if err != nil {
		a.opt.log().Warn("mDNS: answer not built", "err", err)
		return
	}
	// A one-shot resolver gets its answer back where it asked from. A
	// query from port 5353 is answered by multicast even when it prefers
	// unicast (the QU bit): every responder on this machine shares port
	// 5353, so a unicast answer could reach another one's socket, and the
	// neighbours' caches learn the records too (RFC 6762 section 5.4
	// allows it).
	if legacy {
		err = a.link.sendUnicast(msg, src)
	} else {
		err = a.link.sendMulticast(msg, t.Interface.Index)
	}
	if err != nil {
		a.opt.log().Debug("mDNS: answer not sent", "interface", t.Interface.Name, "err", err)
	}
}

// namesUs reports whether a response's records name our host or instance.
func namesUs(p *dnsmessage.Parser, n names) bool {
	if err := p.SkipAllQuestions(); err != nil {
		return false
	}
	for {
		h, err := p.AnswerHeader()
		if err != nil {
			break
		}
		if name := h.Name.String(); strings.EqualFold(name, n.host) || strings.EqualFold(name, n.instance) {
			return true
		}
		if p.SkipAnswer() != nil {
			return false
		}
	}
	return false
}

// knownAnswers reads the answer section of a query: the records the asker
// already holds (RFC 6762 section 7.1), keyed by name, type and data.
func knownAnswers(p *dnsmessage.Parser) map[string]uint32 {
	known := map[string]uint32{}
	all, err := p.AllAnswers()
	if err != nil {
		return known
	}
	for _, rr := range all {
		if ptr, ok := rr.Body.(*dnsmessage.PTRResource); ok {
			known[strings.ToLower(rr.Header.Name.String()+"|"+ptr.PTR.String())] = rr.Header.TTL
		}
	}
	return known
}

// withoutKnown drops the PTR answers the asker holds with at least half
// their TTL left.
func withoutKnown(answers []resource, known map[string]uint32) []resource {
	if len(known) == 0 {
		return answers
	}
	var out []resource
	for _, x := range answers {
		if ptr, ok := x.body.(*dnsmessage.PTRResource); ok {
			if ttl, held := known[strings.ToLower(x.name+"|"+ptr.PTR.String())]; held && ttl >= x.ttl/2 {
				continue
			}
		}
		out = append(out, x)
	}
	return out
}

// check refuses names that are not one DNS label each.
func (s Service) check() error {
	if !ValidHost(s.Host) {
		return fmt.Errorf("mDNS name %q: use letters, digits and '-' (at most 63), as in companion", s.Host)
	}
	if s.Instance == "" || len(s.Instance) > 63 || strings.ContainsAny(s.Instance, ".\x00") {
		return fmt.Errorf("mDNS instance name %q: 1 to 63 bytes, no dot", s.Instance)
	}
	if s.Port <= 0 || s.Port > 65535 {
		return fmt.Errorf("mDNS: port %d", s.Port)
	}
	return nil
}

// ValidHost reports whether h is a host label: letters, digits and
// hyphens, not at either end, at most 63 bytes.
func ValidHost(h string) bool {
	if h == "" || len(h) > 63 || h[0] == '-' || h[len(h)-1] == '-' {
		return false
	}
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
