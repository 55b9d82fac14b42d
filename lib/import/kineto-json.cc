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

template <bool Digits> bool check_number(const char *s, size_t n, pt_kt_json_num *d)
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
				ondemand::field fld;
				if (auto e = std::move(f).get(fld))
					return fail(e);
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
	walker w{ cb, ctx, buf, base, pos };
	*nitems = 0;
	*pos = base;
	error_code e = SUCCESS;
	ondemand::document d;
	bool iterated = false; // d has a position (it has none when stage 1 failed)
	try {
		e = p->parser.iterate(buf, len, cap).get(d);
		iterated = !e;
		if (!e && kind == PT_KT_JSON_ELEMENTS) {
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
