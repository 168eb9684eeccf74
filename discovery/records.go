package discovery

import (
	"net"
	"strings"

	"golang.org/x/net/dns/dnsmessage"
)

// TTLs of RFC 6762 section 10: records naming a host live 120 s, the
// others 75 minutes.
const (
	hostTTL    = 120
	serviceTTL = 4500
	// legacyTTL caps what a one-shot (legacy unicast) resolver is told,
	// RFC 6762 section 6.7.
	legacyTTL = 10
)

const (
	serviceType = "_http._tcp.local."
	// servicesMeta lists the service types on the link (DNS-SD section 9).
	servicesMeta = "_services._dns-sd._udp.local."
	// cacheFlush is the top bit of a record's class: "this record replaces
	// what you hold for its name and type" (RFC 6762 section 10.2).
	cacheFlush = 0x8000
	// unicastResponse is the top bit of a question's class: the asker
	// prefers a unicast answer (RFC 6762 section 5.4).
	unicastResponse = 0x8000
)

// names are the fully qualified names one advertisement answers for.
type names struct {
	host     string // companion.local.
	instance string // Companion._http._tcp.local.
}

func namesOf(s Service) names {
	return names{host: s.Host + ".local.", instance: s.Instance + "." + serviceType}
}

// records builds the answer for one question asked on one interface:
// answers, then additional records that save the asker another query
// (DNS-SD section 12). TTLs are multiplied by ttlScale (0 for a goodbye,
// 1 otherwise) and capped at maxTTL when it is non-zero.
type records struct {
	svc      Service
	n        names
	addrs    []net.IP // the interface's addresses the listener answers on
	ttlScale uint32
	maxTTL   uint32
	flush    bool // set the cache-flush bit on unique records
}

type resource struct {
	name  string
	kind  dnsmessage.Type
	ttl   uint32
	body  dnsmessage.ResourceBody
	share bool // shared records (PTR) never carry the cache-flush bit
}

func (r records) ttl(base uint32) uint32 {
	t := base * r.ttlScale
	if r.maxTTL > 0 && t > r.maxTTL {
		t = r.maxTTL
	}
	return t
}

func (r records) address() []resource {
	var out []resource
	for _, ip := range r.addrs {
		if v4 := ip.To4(); v4 != nil {
			out = append(out, resource{name: r.n.host, kind: dnsmessage.TypeA, ttl: r.ttl(hostTTL), body: &dnsmessage.AResource{A: [4]byte(v4)}})
		} else if v6 := ip.To16(); v6 != nil {
			out = append(out, resource{name: r.n.host, kind: dnsmessage.TypeAAAA, ttl: r.ttl(hostTTL), body: &dnsmessage.AAAAResource{AAAA: [16]byte(v6)}})
		}
	}
	return out
}

func (r records) srv() resource {
	return resource{name: r.n.instance, kind: dnsmessage.TypeSRV, ttl: r.ttl(hostTTL),
		body: &dnsmessage.SRVResource{Port: uint16(r.svc.Port), Target: mustName(r.n.host)}}
}

func (r records) txt() resource {
	txt := r.svc.Text
	if len(txt) == 0 {
		txt = []string{""} // a TXT record holds at least one string
	}
	return resource{name: r.n.instance, kind: dnsmessage.TypeTXT, ttl: r.ttl(serviceTTL), body: &dnsmessage.TXTResource{TXT: txt}}
}

func (r records) ptr() resource {
	return resource{name: serviceType, kind: dnsmessage.TypePTR, ttl: r.ttl(serviceTTL), share: true,
		body: &dnsmessage.PTRResource{PTR: mustName(r.n.instance)}}
}

func (r records) meta() resource {
	return resource{name: servicesMeta, kind: dnsmessage.TypePTR, ttl: r.ttl(serviceTTL), share: true,
		body: &dnsmessage.PTRResource{PTR: mustName(serviceType)}}
}

// all is every record of the advertisement: what an announcement and a
// goodbye carry.
func (r records) all() []resource {
	return append([]resource{r.ptr(), r.meta(), r.srv(), r.txt()}, r.address()...)
}

// answer returns the answers and additional records for one question.
func (r records) answer(q dnsmessage.Question) (answers, extra []resource) {
	name := q.Name.String()
	any := q.Type == dnsmessage.TypeALL
	pick := func(rs ...resource) []resource {
		var out []resource
		for _, x := range rs {
			if any || q.Type == x.kind {
				out = append(out, x)
			}
		}
		return out
	}
	switch {
	case strings.EqualFold(name, r.n.host):
		answers = pick(r.address()...)
	case strings.EqualFold(name, serviceType):
		answers = pick(r.ptr())
		if len(answers) > 0 {
			extra = append([]resource{r.srv(), r.txt()}, r.address()...)
		}
	case strings.EqualFold(name, servicesMeta):
		answers = pick(r.meta())
	case strings.EqualFold(name, r.n.instance):
		answers = pick(r.srv(), r.txt())
		if len(answers) > 0 {
			extra = r.address()
		}
	}
	return answers, extra
}

// build packs a message: header, questions (only in a legacy unicast
// answer, which must echo them), answers, authority records (only in a
// probe) and additional records, dropping additional records that repeat
// an answer.
func (r records) build(h dnsmessage.Header, questions []dnsmessage.Question, answers, authority, extra []resource) ([]byte, error) {
	b := dnsmessage.NewBuilder(make([]byte, 0, 512), h)
	b.EnableCompression()
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	for _, q := range questions {
		if err := b.Question(q); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	key := func(x resource) string {
		return strings.ToLower(x.name) + "/" + x.kind.String() + "/" + x.body.GoString()
	}
	write := func(start func() error, rs []resource, dedupe bool) error {
		if err := start(); err != nil {
			return err
		}
		for _, x := range rs {
			k := key(x)
			if dedupe && seen[k] {
				continue
			}
			seen[k] = true
			if err := r.add(&b, x); err != nil {
				return err
			}
		}
		return nil
	}
	if err := write(b.StartAnswers, answers, true); err != nil {
		return nil, err
	}
	if err := write(b.StartAuthorities, authority, false); err != nil {
		return nil, err
	}
	if err := write(b.StartAdditionals, extra, true); err != nil {
		return nil, err
	}
	return b.Finish()
}

func (r records) add(b *dnsmessage.Builder, x resource) error {
	class := dnsmessage.ClassINET
	if r.flush && !x.share {
		class |= cacheFlush
	}
	h := dnsmessage.ResourceHeader{Name: mustName(x.name), Class: class, TTL: x.ttl}
	switch body := x.body.(type) {
	case *dnsmessage.AResource:
		return b.AResource(h, *body)
	case *dnsmessage.AAAAResource:
		return b.AAAAResource(h, *body)
	case *dnsmessage.PTRResource:
		return b.PTRResource(h, *body)
	case *dnsmessage.SRVResource:
		return b.SRVResource(h, *body)
	case *dnsmessage.TXTResource:
		return b.TXTResource(h, *body)
	}
	return nil
}

// mustName makes a dnsmessage.Name of a name this package built: its
// labels were checked when the Service was (validName), so it fits.
func mustName(s string) dnsmessage.Name {
	n, err := dnsmessage.NewName(s)
	if err != nil {
		panic("discovery: " + err.Error())
	}
	return n
}
