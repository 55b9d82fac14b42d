// bench-simdjson FILE [MODE]: simdjson (Debian's libsimdjson-dev) on a Kineto trace, for the
// comparison with yajl (bench-yajl.c) in bench/RESULTS.md. MODE "touch" (default): On-Demand
// on the whole file loaded in memory (peak RSS: the file plus padding), every field of every
// event and every args key and value read as raw text (what the importer takes); "skip": the
// same, the events counted only; "chunked": bounded memory, see chunked() below.
// Built by bench/CMakeLists.txt (build/bench/bench-simdjson); not needed by the tests.
#include <simdjson.h>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace simdjson;

/* One parsed array of events: every field read as raw text, args keys and values too. */
static size_t touch_events(ondemand::array evs, size_t *bytes)
{
	size_t n = 0;
	for (auto e : evs) {
		n++;
		ondemand::object o;
		if (e.get_object().get(o))
			return SIZE_MAX;
		for (auto f : o) {
			std::string_view k;
			if (f.unescaped_key().get(k))
				return SIZE_MAX;
			ondemand::value v;
			if (f.value().get(v))
				return SIZE_MAX;
			if (k == "args") {
				ondemand::object a;
				if (v.get_object().get(a) == SUCCESS)
					for (auto af : a) {
						std::string_view ak;
						if (af.unescaped_key().get(ak))
							return SIZE_MAX;
						std::string_view raw = af.value().raw_json_token();
						*bytes += ak.size() + raw.size();
					}
			} else {
				*bytes += v.raw_json_token().size();
			}
		}
	}
	return n;
}

/* MODE "chunked": bounded memory. The text is read 1 MiB at a time; a scanner (strings,
 * escapes, depth) finds the last complete event of the buffer, the complete events are
 * parsed as one array "[...]" and the rest carried over. */
static int chunked(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	const size_t B = 1 << 20;
	std::vector<char> buf(4 * B + SIMDJSON_PADDING);
	size_t have = 0, n = 0, bytes = 0;
	bool started = false, keyseen = false, instr = false, esc = false;
	int depth = 0;           /* depth inside the events array (1 = between events) */
	size_t scan = 0, ev0 = 0; /* scanned so far; start of the first unparsed event */
	ondemand::parser parser;
	for (;;) {
		size_t r = fread(buf.data() + have, 1, B, f);
		if (!r)
			break;
		have += r;
		size_t last = SIZE_MAX; /* end of the last complete event */
		for (size_t i = scan; i < have; i++) {
			char c = buf[i];
			if (!started) {
				static const char key[] = "\"traceEvents\"";
				if (!keyseen) {
					if (i + sizeof(key) - 1 <= have && !memcmp(buf.data() + i, key, sizeof(key) - 1))
						keyseen = true, i += sizeof(key) - 2;
					continue;
				}
				if (c == '[') {
					started = true;
					depth = 1;
					ev0 = i + 1;
				}
				continue;
			}
			if (instr) {
				if (esc)
					esc = false;
				else if (c == '\\')
					esc = true;
				else if (c == '"')
					instr = false;
				continue;
			}
			if (c == '"')
				instr = true;
			else if (c == '{' || c == '[')
				depth++;
			else if (c == '}' || c == ']') {
				if (--depth == 1)
					last = i + 1;
				if (depth == 0)
					break;
			}
		}
		scan = have;
		if (last == SIZE_MAX) {
			if (have + B > buf.size() - SIMDJSON_PADDING)
				buf.resize(buf.size() * 2);
			continue;
		}
		/* "[" + events + "]" parsed in place: ev0 - 1 holds '[' or ',' */
		size_t len = last - ev0 + 2;
		static std::vector<char> tmp;
		tmp.resize(len + SIMDJSON_PADDING);
		tmp[0] = '[';
		memcpy(tmp.data() + 1, buf.data() + ev0, last - ev0);
		tmp[len - 1] = ']';
		ondemand::document d;
		if (parser.iterate(tmp.data(), len, tmp.size()).get(d))
			return 1;
		ondemand::array a;
		if (d.get_array().get(a))
			return 1;
		size_t k = touch_events(a, &bytes);
		if (k == SIZE_MAX)
			return 1;
		n += k;
		/* carry the rest: after the ',' that follows the last event */
		size_t rest = last;
		while (rest < have && buf[rest] != ',' && buf[rest] != '{')
			rest++;
		if (rest < have && buf[rest] == ',')
			rest++;
		memmove(buf.data(), buf.data() + rest, have - rest);
		have -= rest;
		scan -= rest;
		ev0 = 0;
	}
	fclose(f);
	printf("%zu events, %zu bytes of values touched (chunked)\n", n, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (argc > 2 && !strcmp(argv[2], "chunked"))
		return chunked(argv[1]);
	bool touch = argc < 3 || !strcmp(argv[2], "touch");
	padded_string json;
	if (padded_string::load(argv[1]).get(json)) {
		fprintf(stderr, "cannot load %s\n", argv[1]);
		return 1;
	}
	ondemand::parser parser;
	ondemand::document doc;
	if (parser.iterate(json).get(doc))
		return 1;
	size_t n = 0, bytes = 0;
	ondemand::object top;
	if (doc.get_object().get(top))
		return 1;
	for (auto field : top) {
		std::string_view key;
		if (field.unescaped_key().get(key))
			return 1;
		if (key != "traceEvents")
			continue;
		ondemand::array evs;
		if (field.value().get_array().get(evs))
			return 1;
		for (auto e : evs) {
			n++;
			if (!touch)
				continue;
			ondemand::object o;
			if (e.get_object().get(o))
				return 1;
			for (auto f : o) {
				std::string_view k;
				if (f.unescaped_key().get(k))
					return 1;
				ondemand::value v;
				if (f.value().get(v))
					return 1;
				if (k == "args") {
					ondemand::object a;
					if (v.get_object().get(a) == SUCCESS)
						for (auto af : a) {
							std::string_view ak;
							if (af.unescaped_key().get(ak))
								return 1;
							std::string_view raw = af.value().raw_json_token();
							bytes += ak.size() + raw.size();
						}
				} else {
					std::string_view raw = v.raw_json_token();
					bytes += raw.size();
				}
			}
		}
	}
	printf("%zu events, %zu bytes of values touched\n", n, bytes);
	return 0;
}
