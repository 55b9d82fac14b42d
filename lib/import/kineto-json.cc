// The Kineto importer's JSON parser: simdjson's On-Demand API (Debian's libsimdjson-dev) over the
// pieces import-kineto.c cuts a trace into. Every value of a piece is read and checked (numbers
// against JSON's grammar, which On-Demand leaves to the reader of a number's text) and handed to
// the importer's callbacks in document order; values the callbacks do not read are checked
// without being handed over.
#include <simdjson.h>

#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

extern "C" {
#include "import/kineto-internal.h"
}
#include "import/kineto-json.h"

using namespace simdjson;

struct pt_kt_json {
	ondemand::parser parser;
};

namespace {

bool is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// A number's text: the raw token without the whitespace after it.
std::string_view number_token(ondemand::value &v)
{
	std::string_view s = v.raw_json_token();
	size_t n = s.size();
	while (n && is_ws(s[n - 1]))
		n--;
	return s.substr(0, n);
}

// A JSON number's text -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, s[0 .. n), checked and, for
// the numbers the callbacks read (Digits), its digits read as well: the callbacks convert the
// common numbers from them without reading the text again. The digits are taken eight at a
// time: the 8 bytes from any digit must be readable, and the byte s[n] none of "0-9.eE+-". A
// number's token in a piece is followed by the whitespace or structural byte that ends it and
// by the parser's padding.
inline bool is_digit(char c)
{
	return (unsigned)(c - '0') <= 9;
}

// How many of the 8 bytes at p, from the first, are ASCII digits.
inline size_t digit_run(const char *p)
{
	uint64_t w, t;
	memcpy(&w, p, 8);
	t = w & 0x7f7f7f7f7f7f7f7fULL;
	// a byte's high bit: above '9', below '0', or not ASCII
	uint64_t nd = ((t + 0x4646464646464646ULL) | ~(t + 0x5050505050505050ULL) | w) & 0x8080808080808080ULL;
	return nd ? (size_t)__builtin_ctzll(nd) / 8 : 8; // little-endian: the first byte is the low one
}

// The value of the k (1 to 8) digits at p.
inline uint64_t digits_value(const char *p, size_t k)
{
	uint64_t w;
	memcpy(&w, p, 8);
	w <<= 8 * (8 - k); // the bytes after the digits out, zeros (leading zeros) in
	w = ((w & 0x0f0f0f0f0f0f0f0fULL) * 2561) >> 8;
	w = ((w & 0x00ff00ff00ff00ffULL) * 6553601) >> 16;
	return (uint32_t)(((w & 0x0000ffff0000ffffULL) * 42949672960001ULL) >> 32);
}

const uint64_t pow10_8[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };

// The digits from p on, into *m (which wraps past 19 digits: such a number is not plain); the end.
template <bool Digits> inline const char *digits(const char *p, uint64_t *m)
{
	size_t k;
	do {
		k = digit_run(p);
		if (!k)
			break;
		if (Digits)
			*m = *m * pow10_8[k] + digits_value(p, k);
		p += k;
	} while (k == 8);
	return p;
}

// Inlined where it is called (as known() below): the call's saves and constants cost as much as a
// short number's check.
template <bool Digits> __attribute__((always_inline)) inline bool check_number(const char *s, size_t n, pt_kt_json_num *d)
{
	const char *p = s, *e = s + n;
	bool neg = *p == '-';
	p += neg;
	if (!is_digit(*p))
		return false;
	uint64_t m = 0;
	const char *i0 = p;
	p = *p == '0' ? p + 1 : digits<Digits>(p, &m);
	size_t nint = (size_t)(p - i0), nfrac = 0;
	if (*p == '.') {
		const char *f0 = ++p;
		p = digits<Digits>(p, &m);
		nfrac = (size_t)(p - f0);
		if (!nfrac)
			return false;
	}
	bool exp = *p == 'e' || *p == 'E';
	if (exp) {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!is_digit(*p))
			return false;
		while (is_digit(*p))
			p++;
	}
	if (Digits) {
		d->neg = neg;
		d->mant = m;
		d->nfrac = (uint32_t)nfrac;
		d->plain = !exp && nint <= 15 && nfrac <= 3;
	}
	return p == e;
}

// A string's content from p (after its opening quote) when it holds no escape: up to its closing
// quote, taken 8 bytes at a time (the text is padded), nothing copied; stage 1 has checked it (UTF-8,
// no control character). With a backslash first: false, and the caller unescapes (and checks) it.
bool plain_string(const char *p, std::string_view *out)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
	for (size_t i = 0;; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
		// a byte's high bit where it is a quote or a backslash (exact for the first such byte)
		uint64_t hit = ((q - ones) & ~q) | ((b - ones) & ~b);
		hit &= high;
		if (!hit)
			continue;
		size_t j = i + (size_t)__builtin_ctzll(hit) / 8;
		if (p[j] != '"')
			return false;
		*out = std::string_view(p, j);
		return true;
	}
}

struct walker {
	const pt_kt_json_cb *cb;
	void *ctx;
	const char *buf;
	uint64_t base;
	uint64_t *pos;
	error_code err = SUCCESS;
	const char *what = nullptr; // our own reason, instead of simdjson's
	std::string_view text = {}; // ... and the text it is about
	const char *where = nullptr;
	bool cancelled = false;
	bool rest_unread = false; // wanted() said: neither this value nor the rest of its object is read

	void at(const char *p)
	{
		*pos = base + (uint64_t)(p - buf);
	}
	bool fail(error_code e)
	{
		err = e;
		return false;
	}
	bool bad(const char *why, const char *p, std::string_view s)
	{
		what = why;
		text = s;
		where = p;
		err = NUMBER_ERROR;
		return false;
	}
	bool stop()
	{
		cancelled = true;
		return false;
	}

	// One value: handed over (read) or only checked.
	bool value(ondemand::value &v, bool read)
	{
		const char *p = v.raw_json_token().data();
		at(p);
		if (read && cb->wanted) {
			int w = cb->wanted(ctx);
			if (w <= 0)
				read = false;
			rest_unread = w < 0;
		}
		ondemand::json_type t;
		if (auto e = v.type().get(t))
			return fail(e);
		switch (t) {
		case ondemand::json_type::object: {
			ondemand::object o;
			if (auto e = v.get_object().get(o))
				return fail(e);
			if (read && !cb->start_map(ctx))
				return stop();
			bool fields = read; // its fields handed over (until wanted() says the rest are not)
			for (auto f : o) {
				if (auto e = f.error())
					return fail(e);
				ondemand::field &&fld = std::move(f).value_unsafe();
				std::string_view key;
				if (!plain_string(fld.key().raw(), &key)) {
					if (auto e = fld.unescaped_key().get(key))
						return fail(e);
				}
				if (fields && !cb->map_key(ctx, (const unsigned char *)key.data(), key.size()))
					return stop();
				if (!value(fld.value(), fields))
					return false;
				if (rest_unread) {
					rest_unread = false;
					fields = false;
				}
			}
			if (read) {
				at(p);
				if (!cb->end_map(ctx))
					return stop();
			}
			break;
		}
		case ondemand::json_type::array: {
			ondemand::array a;
			if (auto e = v.get_array().get(a))
				return fail(e);
			if (read && !cb->start_array(ctx))
				return stop();
			for (auto x : a) {
				ondemand::value el;
				if (auto e = std::move(x).get(el))
					return fail(e);
				if (!value(el, read))
					return false;
				rest_unread = false; // an element's -1 is a 0
			}
			if (read) {
				at(p);
				if (!cb->end_array(ctx))
					return stop();
			}
			break;
		}
		case ondemand::json_type::string: {
			std::string_view s;
			if (auto e = v.get_string().get(s))
				return fail(e);
			if (read && !cb->string(ctx, (const unsigned char *)s.data(), s.size()))
				return stop();
			break;
		}
		case ondemand::json_type::number: {
			std::string_view s = number_token(v);
			pt_kt_json_num d;
			if (!(read ? check_number<true>(s.data(), s.size(), &d)
				   : check_number<false>(s.data(), s.size(), &d)))
				return bad("invalid number", p, s);
			if (read && !cb->number(ctx, s.data(), s.size(), &d))
				return stop();
			break;
		}
		case ondemand::json_type::boolean: {
			bool b;
			if (v.get_bool().get(b))
				return fail(T_ATOM_ERROR);
			if (read && !cb->boolean(ctx, b))
				return stop();
			break;
		}
		case ondemand::json_type::null: {
			bool isnull;
			if (v.is_null().get(isnull))
				return fail(N_ATOM_ERROR);
			if (!isnull)
				return fail(N_ATOM_ERROR);
			if (read && !cb->null(ctx))
				return stop();
			break;
		}
		default:
			return fail(TAPE_ERROR);
		}
		return true;
	}
};

// An event's key: its code by length and bytes (as the callbacks' key dispatch).
inline evkey event_key(std::string_view s)
{
	const char *p = s.data();
	switch (s.size()) {
	case 2:
		return p[0] == 'p' && p[1] == 'h' ? EK_PH : p[0] == 't' && p[1] == 's' ? EK_TS : EK_OTHER;
	case 3:
		if (p[1] == 'i' && p[2] == 'd')
			return p[0] == 'p' ? EK_PID : p[0] == 't' ? EK_TID : EK_OTHER;
		return !memcmp(p, "cat", 3) ? EK_CAT : !memcmp(p, "dur", 3) ? EK_DUR : EK_OTHER;
	case 4:
		return !memcmp(p, "name", 4) ? EK_NAME : !memcmp(p, "args", 4) ? EK_ARGS : EK_OTHER;
	default:
		return EK_OTHER;
	}
}

// An args key's code by length and bytes (the importer's table, arg_words in import-kineto.c).
#define KT_IS(lit) (!memcmp(p, lit, sizeof(lit) - 1))
inline argkey arg_key(std::string_view s)
{
	const char *p = s.data();
	switch (s.size()) {
	case 3: return KT_IS("Seq") ? AK_SEQ : AK_OTHER;
	case 4: return KT_IS("grid") ? AK_GRID : KT_IS("name") ? AK_NAME : KT_IS("cbid") ? AK_CBID : AK_OTHER;
	case 5: return KT_IS("block") ? AK_BLOCK : KT_IS("bytes") ? AK_BYTES : KT_IS("dtype") ? AK_DTYPE : AK_OTHER;
	case 6: return KT_IS("stream") ? AK_STREAM : KT_IS("device") ? AK_DEVICE : AK_OTHER;
	case 8: return KT_IS("toDevice") ? AK_TODEV : AK_OTHER;
	case 10:
		return KT_IS("fromDevice") ? AK_FROMDEV : KT_IS("Input Dims") ? AK_DIMS
			: KT_IS("Input type") ? AK_TYPES : KT_IS("Group size") ? AK_GROUP_SIZE : AK_OTHER;
	case 11: return KT_IS("External id") ? AK_EXTID : KT_IS("correlation") ? AK_CORR : AK_OTHER;
	case 13:
		return KT_IS("shared memory") ? AK_SMEM : KT_IS("In msg nelems") ? AK_IN_NELEMS
			: KT_IS("In split size") ? AK_IN_SPLIT : AK_OTHER;
	case 14:
		return KT_IS("cuda_sync_kind") ? AK_SYNC_KIND : KT_IS("wait_on_stream") ? AK_WAIT_STREAM
			: KT_IS("Out msg nelems") ? AK_OUT_NELEMS : KT_IS("Out split size") ? AK_OUT_SPLIT : AK_OTHER;
	case 15: return KT_IS("Collective name") ? AK_COLL : AK_OTHER;
	case 18: return KT_IS("Process Group Name") ? AK_PG_NAME : AK_OTHER;
	case 19: return KT_IS("Process Group Ranks") ? AK_PG_RANKS : AK_OTHER;
	case 20: return KT_IS("registers per thread") ? AK_REGS : AK_OTHER;
	case 21: return KT_IS("wait_on_cuda_event_id") ? AK_WAIT_EVENT : AK_OTHER;
	case 25: return KT_IS("Process Group Description") ? AK_PG_DESC : AK_OTHER;
	case 33: return KT_IS("wait_on_cuda_event_record_corr_id") ? AK_WAIT_CORR : AK_OTHER;
	default: return AK_OTHER;
	}
}
#undef KT_IS

// The event walker: each traceEvents element read in one pass, its keys in the order they come,
// dispatched on their bytes, the values of known keys handed to the importer's handler by a direct
// call (strings and numbers; anything else, and elements that are not objects, through the
// generic walk and the callbacks, which know what to make of them); the values of other keys,
// and everything after what says the event is dropped, checked and passed over.
struct event_walker : walker {
	kt *k;

	// The field f's key as written: from after its opening quote to its closing quote, which is
	// the last quote before the ':' that the parser found before the value at v (no scan of the
	// key itself).
	static std::string_view raw_key(ondemand::field &f, const char *v)
	{
		const char *k0 = f.key().raw(), *q = v - 1;
		while (is_ws(*q))
			q--;
		q--; // the ':'
		while (is_ws(*q))
			q--;
		return std::string_view(k0, (size_t)(q - k0));
	}

	// Whether a key as written has an escape (it is then unescaped and dispatched again).
	static bool escaped(std::string_view s)
	{
		for (char c : s)
			if (c == '\\')
				return true;
		return false;
	}

	bool unescaped(ondemand::field &f, std::string_view *key)
	{
		if (auto e = f.unescaped_key().get(*key))
			return fail(e);
		return true;
	}

	// A value the importer does not read (at p), checked: a number here, without a call (as the
	// generic walk checks it); anything else by the generic walk.
	inline bool skip(ondemand::value &v, const char *p)
	{
		if (*p != '-' && !is_digit(*p))
			return value(v, false);
		at(p);
		std::string_view s = number_token(v);
		return check_number<false>(s.data(), s.size(), nullptr) || bad("invalid number", p, s);
	}

	// An event's time (ts, dur: µs to ns) or id (pid, tid) from a plain number, as the handler
	// would set it; false: the handler converts it.
	bool event_number(evkey ek, const pt_kt_json_num &d)
	{
		static const int64_t p10[4] = { 1000, 100, 10, 1 };
		kev *ev = &k->ev;
		if (!d.plain)
			return false;
		if (ek == EK_TS || ek == EK_DUR) {
			if (d.nfrac > 3)
				return false;
			int64_t v = (int64_t)d.mant * p10[d.nfrac];
			v = d.neg ? -v : v;
			if (ek == EK_TS) {
				ev->ts_st = T_OK;
				ev->ts = v;
			} else {
				ev->dur_st = T_OK;
				ev->dur = v;
			}
			return true;
		}
		if ((ek != EK_PID && ek != EK_TID) || d.nfrac)
			return false;
		int64_t v = d.neg ? -(int64_t)d.mant : (int64_t)d.mant;
		if (ek == EK_PID) {
			ev->pid_num = true;
			ev->pid = v;
		} else {
			ev->tid_num = true;
			ev->tid = v;
		}
		return true;
	}

	// An args number of a key the handler converts to an integer, from its plain digits.
	bool arg_number(argkey ak, const pt_kt_json_num &d)
	{
		if (!d.plain || d.nfrac || ak >= AK_COMM_FIRST || ak == AK_NAME || ak == AK_SYNC_KIND)
			return false;
		k->ev.has[ak] = true;
		k->ev.a[ak] = d.neg ? -(int64_t)d.mant : (int64_t)d.mant;
		return true;
	}

	// The number at p (v's token) the importer reads: its text *s, checked, and its digits in *d.
	__attribute__((always_inline)) bool read_number(ondemand::value &v, const char *p, std::string_view *s, pt_kt_json_num *d)
	{
		*s = number_token(v);
		return check_number<true>(s->data(), s->size(), d) || bad("invalid number", p, *s);
	}

	// A value the importer reads, in state st (S_EVVAL, k->ek set; S_ARGVAL, k->ak set).
	__attribute__((always_inline)) bool known(ondemand::value &v, state st)
	{
		const char *p = v.raw_json_token().data();
		at(p);
		k->st = st;
		char c = *p;
		if (c == '"') {
			std::string_view s;
			if (auto e = v.get_string().get(s))
				return fail(e);
			if (!pt_kt_scalar(k, V_STR, (const unsigned char *)s.data(), s.size(), nullptr))
				return stop();
			return true;
		}
		if (c == '-' || is_digit(c)) {
			std::string_view s;
			pt_kt_json_num d;
			if (!read_number(v, p, &s, &d))
				return false;
			if (st == S_EVVAL ? event_number(k->ek, d) : arg_number(k->ak, d)) {
				k->st = st == S_EVVAL ? S_EV : S_ARGS;
				return true;
			}
			if (!pt_kt_scalar(k, V_NUM, (const unsigned char *)s.data(), s.size(), &d))
				return stop();
			return true;
		}
		if (c == '[' && st == S_ARGVAL && (k->ak == AK_GRID || k->ak == AK_BLOCK))
			return numbers(v, p);
		return value(v, true); // containers, literals, bad tokens: the generic walk and callbacks
	}

	// grid and block (an array at p, k->st S_ARGVAL), as the generic walk and the callbacks take it
	// (the same states and positions), its numbers handed to the handler by a direct call;
	// elements of other types through the generic walk.
	bool numbers(ondemand::value &v, const char *p)
	{
		ondemand::array a;
		if (auto e = v.get_array().get(a))
			return fail(e);
		k->st = S_ARGARR;
		for (auto x : a) {
			if (auto e = x.error())
				return fail(e);
			ondemand::value &&el = std::move(x).value_unsafe();
			const char *q = el.raw_json_token().data();
			if (*q != '-' && !is_digit(*q)) {
				if (!value(el, true))
					return false;
				continue;
			}
			at(q);
			std::string_view s;
			pt_kt_json_num d;
			if (!read_number(el, q, &s, &d))
				return false;
			if (!pt_kt_scalar(k, V_NUM, (const unsigned char *)s.data(), s.size(), &d))
				return stop();
		}
		at(p);
		k->st = S_ARGS;
		return true;
	}

	bool args(ondemand::value &v)
	{
		const char *p = v.raw_json_token().data();
		if (*p != '{') {
			k->st = S_EVVAL;
			k->ek = EK_ARGS;
			return value(v, true);
		}
		at(p);
		ondemand::object o;
		if (auto e = v.get_object().get(o))
			return fail(e);
		k->st = S_ARGS;
		for (auto f : o) {
			if (auto e = f.error())
				return fail(e);
			ondemand::field &&fld = std::move(f).value_unsafe();
			const char *vp = fld.value().raw_json_token().data();
			std::string_view ks = raw_key(fld, vp);
			k->ak = arg_key(ks);
			if (k->ak == AK_OTHER && escaped(ks)) {
				if (!unescaped(fld, &ks))
					return false;
				k->ak = arg_key(ks);
			}
			if (k->ak == AK_OTHER) {
				if (!skip(fld.value(), vp))
					return false;
			} else if (!known(fld.value(), S_ARGVAL)) {
				return false;
			}
		}
		k->st = S_EV;
		return true;
	}

	bool event(ondemand::value &v)
	{
		const char *p = v.raw_json_token().data();
		at(p);
		if (*p != '{')
			return value(v, true); // the callbacks say what is wrong with it
		ondemand::object o;
		if (auto e = v.get_object().get(o))
			return fail(e);
		pt_kt_event_begin(k);
		k->st = S_EV;
		const kev *ev = &k->ev;
		for (auto f : o) {
			if (auto e = f.error())
				return fail(e);
			ondemand::field &&fld = std::move(f).value_unsafe();
			const char *vp = fld.value().raw_json_token().data();
			std::string_view ks = raw_key(fld, vp);
			evkey ek = ev->drop ? EK_OTHER : event_key(ks); // a dropped event: nothing more is read
			if (ek == EK_OTHER && escaped(ks)) { // unescaped (and so checked), then dispatched
				if (!unescaped(fld, &ks))
					return false;
				if (!ev->drop)
					ek = event_key(ks);
			}
			bool ok;
			if (ek == EK_OTHER) {
				ok = skip(fld.value(), vp);
			} else if (ek == EK_ARGS) {
				ok = args(fld.value());
			} else {
				k->ek = ek;
				ok = known(fld.value(), S_EVVAL);
			}
			if (!ok)
				return false;
		}
		at(p);
		k->st = S_EVENTS;
		if (!pt_kt_event_done(k))
			return stop();
		return true;
	}
};

const char *reason(error_code e)
{
	switch (e) {
	case TAPE_ERROR:
		return "a ',', ':', bracket or value missing or out of place";
	case INCORRECT_TYPE:
		return "a value out of place";
	case UTF8_ERROR:
		return "invalid UTF-8";
	case UNESCAPED_CHARS:
		return "a control character out of place";
	case STRING_ERROR:
		return "invalid string escape";
	case T_ATOM_ERROR:
	case F_ATOM_ERROR:
	case N_ATOM_ERROR:
		return "invalid literal";
	case NUMBER_ERROR:
		return "invalid number";
	case DEPTH_ERROR:
		return "nested too deep";
	case CAPACITY:
		return "a piece of the text too large to parse (4 GiB)";
	case MEMALLOC:
		return "out of memory";
	default:
		return error_message(e);
	}
}

} // namespace

extern "C" int pt_kt_json_number(const char *s, size_t n)
{
	std::string t(s, n); // check_number() reads up to 8 bytes after the text: here spaces
	t.append(8, ' ');
	pt_kt_json_num d;
	return check_number<true>(t.data(), n, &d);
}

extern "C" size_t pt_kt_json_bad_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i];
		size_t k;
		unsigned min;
		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			k = 1, min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			k = 2, min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			k = 3, min = 0x10000;
		} else {
			return i;
		}
		unsigned v = c & (0x3fu >> k);
		for (size_t j = 1; j <= k; j++) {
			if (i + j >= n || (s[i + j] & 0xc0) != 0x80)
				return i;
			v = v << 6 | (s[i + j] & 0x3fu);
		}
		if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
			return i;
		i += k + 1;
	}
	return n;
}

extern "C" struct pt_kt_json *pt_kt_json_new(void)
{
	return new pt_kt_json();
}

extern "C" void pt_kt_json_free(struct pt_kt_json *p)
{
	delete p;
}

extern "C" size_t pt_kt_json_padding(void)
{
	return SIMDJSON_PADDING;
}

extern "C" int pt_kt_json_parse(struct pt_kt_json *p, enum pt_kt_json_kind kind, const char *buf, size_t len,
				size_t cap, const struct pt_kt_json_cb *cb, void *ctx, uint64_t base, uint64_t *pos,
				size_t *nitems, char *msg, size_t msgn)
{
	event_walker w;
	w.cb = cb;
	w.ctx = ctx;
	w.buf = buf;
	w.base = base;
	w.pos = pos;
	w.k = (kt *)ctx;
	*nitems = 0;
	*pos = base;
	error_code e = SUCCESS;
	ondemand::document d;
	bool iterated = false; // d has a position (it has none when stage 1 failed)
	try {
		e = p->parser.iterate(buf, len, cap).get(d);
		iterated = !e;
		if (!e && kind == PT_KT_JSON_EVENTS) {
			ondemand::array a;
			e = d.get_array().get(a);
			if (!e) {
				for (auto x : a) {
					ondemand::value v;
					if ((e = std::move(x).get(v)))
						break;
					++*nitems;
					if (!w.event(v)) {
						if (w.cancelled)
							return 1;
						e = w.err;
						break;
					}
					w.rest_unread = false;
				}
			}
		} else if (!e && kind == PT_KT_JSON_ELEMENTS) {
			ondemand::array a;
			e = d.get_array().get(a);
			if (!e) {
				for (auto x : a) {
					ondemand::value v;
					if ((e = std::move(x).get(v)))
						break;
					++*nitems;
					if (!w.value(v, true)) {
						if (w.cancelled)
							return 1;
						e = w.err;
						break;
					}
					w.rest_unread = false;
				}
			}
		} else if (!e) {
			ondemand::object o;
			e = d.get_object().get(o);
			if (!e) {
				for (auto f : o) {
					ondemand::field fld;
					if ((e = std::move(f).get(fld)))
						break;
					const char *kq = fld.key().raw() - 1; // the key's opening quote
					std::string_view key;
					if ((e = fld.unescaped_key().get(key)))
						break;
					++*nitems;
					w.at(kq);
					if (!cb->map_key(ctx, (const unsigned char *)key.data(), key.size()))
						return 1;
					if (!w.value(fld.value(), true)) {
						if (w.cancelled)
							return 1;
						e = w.err;
						break;
					}
					w.rest_unread = false; // the piece's one member: nothing after it
				}
			}
		}
	} catch (const std::bad_alloc &) {
		e = MEMALLOC;
	}
	if (!e)
		return 0;
	if (w.what) {
		if (w.text.size() > 40)
			snprintf(msg, msgn, "%s '%.40s...'", w.what, w.text.data());
		else
			snprintf(msg, msgn, "%s '%.*s'", w.what, (int)w.text.size(), w.text.data());
		w.at(w.where);
		return -1;
	}
	snprintf(msg, msgn, "%s", reason(e));
	if (e == UTF8_ERROR) {
		w.at(buf + pt_kt_json_bad_utf8((const unsigned char *)buf, len));
		return -1;
	}
	if (e == UNESCAPED_CHARS) { // the first control character that is not whitespace
		size_t i = 0;
		while (i < len && ((unsigned char)buf[i] >= 0x20 || is_ws(buf[i])))
			i++;
		w.at(buf + i);
		return -1;
	}
	const char *loc = nullptr;
	if (iterated && d.current_location().get(loc) == SUCCESS && loc >= buf && loc <= buf + len)
		w.at(loc);
	return -1;
}
