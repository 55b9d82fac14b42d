#include "export/jsonw.h"

#include <string.h>

#include "support/out.h"

size_t pt_jsonw_utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t k;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		k = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		k = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		k = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < k)
		return 0;
	unsigned cp = c & (0x7f >> k);
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return k;
}

void pt_jsonw_str(struct pt_out *o, const char *str, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	pt_out_putc(o, '"');
	size_t run = 0; /* start of the pending run of plain bytes */
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0x80) {
			size_t k = pt_jsonw_utf8_len(s + i, n - i);
			if (k) {
				i += k;
				continue;
			}
		}
		pt_out_write(o, s + run, i - run);
		switch (c) {
		case '"':
			pt_out_puts(o, "\\\"");
			break;
		case '\\':
			pt_out_puts(o, "\\\\");
			break;
		case '\n':
			pt_out_puts(o, "\\n");
			break;
		case '\t':
			pt_out_puts(o, "\\t");
			break;
		case '\r':
			pt_out_puts(o, "\\r");
			break;
		default:
			if (c < 0x20) {
				char b[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
				pt_out_write(o, b, 6);
			} else {
				pt_out_puts(o, "\\ufffd");
			}
		}
		i++;
		run = i;
	}
	pt_out_write(o, s + run, n - run);
	pt_out_putc(o, '"');
}

size_t pt_jsonw_quote(char *out, const char *str, size_t n, bool short_bf)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	char *p = out;
	*p++ = '"';
	size_t run = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0x80) {
			size_t k = pt_jsonw_utf8_len(s + i, n - i);
			if (k) {
				i += k;
				continue;
			}
		}
		memcpy(p, s + run, i - run);
		p += i - run;
		*p++ = '\\';
		switch (c) {
		case '"':
			*p++ = '"';
			break;
		case '\\':
			*p++ = '\\';
			break;
		case '\n':
			*p++ = 'n';
			break;
		case '\t':
			*p++ = 't';
			break;
		case '\r':
			*p++ = 'r';
			break;
		case '\b':
		case '\f':
			if (short_bf) {
				*p++ = c == '\b' ? 'b' : 'f';
				break;
			}
			/* fall through */
		default:
			if (c < 0x20) {
				memcpy(p, "u00", 3);
				p[3] = hex[c >> 4];
				p[4] = hex[c & 15];
			} else {
				memcpy(p, "ufffd", 5);
			}
			p += 5;
		}
		i++;
		run = i;
	}
	memcpy(p, s + run, n - run);
	p += n - run;
	*p++ = '"';
	return (size_t)(p - out);
}
