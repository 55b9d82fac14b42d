/*
 * libFuzzer target: the model reader (.ptm, proftool-model(5)), from memory.
 *
 * A byte mutated anywhere in a model breaks its CRC-32 (and, compressed, its
 * zlib stream), so plain mutations never get past the checksum. The custom
 * mutator below works on the inflated body instead: it splits it into its
 * chunks, mutates one chunk's bytes (or its length, or deletes, repeats or
 * swaps chunks, or the whole body as bytes now and then), frames the chunks
 * again, recomputes the footer's CRC-32 when the last chunk is a footer,
 * and compresses the body again when the input was compressed. So most
 * inputs reach the reader's checks of content and cross references, and the
 * passes behind them.
 */
#define FZ_PTM 1
#include "fuzz-common.h"

#include <zlib.h>

#include "proftool.pb-c.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#define FZ_BODY_MAX (1u << 20) /* inflated bodies beyond are mutated as bytes */
#define FZ_CHUNKS_MAX 4096

struct fz_chunk {
	size_t off, len; /* the message bytes in the body, after the length prefix */
};

static size_t fz_put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static bool fz_get_varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
	uint64_t x = 0;
	for (int sh = 0; sh < 64 && *i < n; sh += 7) {
		uint8_t b = p[(*i)++];
		x |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

/* Split body into chunks; false when its framing is broken. */
static bool fz_split(const uint8_t *body, size_t n, struct fz_chunk *c, size_t *nc)
{
	size_t i = 0;
	*nc = 0;
	while (i < n) {
		uint64_t len;
		if (*nc == FZ_CHUNKS_MAX || !fz_get_varint(body, n, &i, &len) || len > n - i)
			return false;
		c[(*nc)++] = (struct fz_chunk){ i, (size_t)len };
		i += (size_t)len;
	}
	return true;
}

/*
 * Frame the chunks (message bytes c[k] of src) into dst (room: cap); the
 * last one, when it unpacks as a footer, gets the CRC-32 of the bytes
 * before its length prefix. Returns the body length, 0 when it does not fit.
 */
static size_t fz_frame(const uint8_t *src, const struct fz_chunk *c, size_t nc, uint8_t *dst, size_t cap)
{
	size_t o = 0;
	for (size_t k = 0; k < nc; k++) {
		const uint8_t *msg = src + c[k].off;
		size_t len = c[k].len;
		uint8_t foot[256];
		if (k + 1 == nc) {
			Proftool__Chunk *f = proftool__chunk__unpack(NULL, len, msg);
			if (f && f->body_case == PROFTOOL__CHUNK__BODY_FOOTER &&
			    proftool__chunk__get_packed_size(f) <= sizeof(foot)) {
				f->footer->crc32 = (uint32_t)crc32(0, dst, (uInt)o);
				len = proftool__chunk__pack(f, foot);
				msg = foot;
			}
			if (f)
				proftool__chunk__free_unpacked(f, NULL);
		}
		if (cap - o < len + 10)
			return 0;
		o += fz_put_varint(dst + o, len);
		memcpy(dst + o, msg, len);
		o += len;
	}
	return o;
}

/* One structure-aware mutation of the chunks c of body, in place in c; a
 * mutated message goes to scratch (FZ_BODY_MAX bytes, *used of them taken). */
static void fz_mutate_chunks(uint8_t *body, uint8_t *scratch, size_t *used, struct fz_chunk *c, size_t *nc,
			     unsigned r)
{
	size_t k = *nc > 1 ? r / 8 % (*nc - 1) : 0; /* the footer is mutated only by the byte mutations */
	switch (r % 8) {
	case 0: /* delete a chunk */
		if (*nc > 1) {
			memmove(&c[k], &c[k + 1], (*nc - k - 1) * sizeof(*c));
			(*nc)--;
		}
		break;
	case 1: /* repeat a chunk */
		if (*nc < FZ_CHUNKS_MAX) {
			memmove(&c[k + 1], &c[k], (*nc - k) * sizeof(*c));
			(*nc)++;
		}
		break;
	case 2: /* swap two chunks */
		if (*nc > 2) {
			size_t j = r / 64 % (*nc - 1);
			struct fz_chunk t = c[k];
			c[k] = c[j];
			c[j] = t;
		}
		break;
	default: { /* mutate one chunk's message bytes (into scratch, appended) */
		size_t len = c[k].len, room = len * 2 + 64;
		if (*used + room > FZ_BODY_MAX)
			break;
		memcpy(scratch + *used, body + c[k].off, len);
		len = LLVMFuzzerMutate(scratch + *used, len, room);
		/* the chunk now lives in scratch, which follows body */
		c[k].off = FZ_BODY_MAX + *used;
		c[k].len = len;
		*used += len;
		break;
	}
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	static uint8_t *body, *both, *out;
	static struct fz_chunk *chunks;
	if (!body) {
		body = malloc(FZ_BODY_MAX);
		both = malloc(2 * (size_t)FZ_BODY_MAX); /* body, then the mutated chunks */
		out = malloc(FZ_BODY_MAX + 64);
		chunks = malloc(FZ_CHUNKS_MAX * sizeof(*chunks));
		if (!body || !both || !out || !chunks)
			fz_die("malloc");
	}
	srand(seed);
	unsigned r = (unsigned)rand();
	if (size < 16 || memcmp(data, PT_PTM_MAGIC, PT_PTM_MAGIC_LEN) || r % 16 == 0)
		return LLVMFuzzerMutate(data, size, max_size); /* the header and framing as bytes, sometimes */
	bool z = data[12] & 1;
	size_t n;
	if (z) {
		uLongf dl = FZ_BODY_MAX;
		if (uncompress(body, &dl, data + 16, (uLong)(size - 16)) != Z_OK)
			return LLVMFuzzerMutate(data, size, max_size);
		n = dl;
	} else {
		n = size - 16 < FZ_BODY_MAX ? size - 16 : FZ_BODY_MAX;
		memcpy(body, data + 16, n);
	}
	size_t nc;
	memcpy(both, body, n);
	if (r / 16 % 8 == 0 || !fz_split(both, n, chunks, &nc)) {
		/* the whole body as bytes, its footer fixed when it still frames */
		n = LLVMFuzzerMutate(both, n, FZ_BODY_MAX);
		if (!fz_split(both, n, chunks, &nc)) {
			memcpy(out, both, n);
			goto pack;
		}
	} else {
		int times = 1 + (int)(r / 128 % 3);
		size_t used = 0;
		for (int t = 0; t < times; t++)
			fz_mutate_chunks(both, both + FZ_BODY_MAX, &used, chunks, &nc, (unsigned)rand());
	}
	n = fz_frame(both, chunks, nc, out, FZ_BODY_MAX);
	if (!n)
		return LLVMFuzzerMutate(data, size, max_size);
pack:
	if (r / 1024 % 32 == 0)
		z = !z; /* now and then the other form */
	uint8_t hdr[16];
	memcpy(hdr, data, 16);
	hdr[12] = (uint8_t)((hdr[12] & ~1u) | (z ? 1u : 0u));
	if (z) {
		uLongf cl = compressBound((uLong)n);
		if (cl + 16 > max_size) {
			uint8_t *tmp = malloc(cl);
			if (!tmp || compress2(tmp, &cl, out, (uLong)n, 1) != Z_OK || cl + 16 > max_size) {
				free(tmp);
				return LLVMFuzzerMutate(data, size, max_size);
			}
			memcpy(data + 16, tmp, cl);
			free(tmp);
		} else if (compress2(data + 16, &cl, out, (uLong)n, 1) != Z_OK) {
			return LLVMFuzzerMutate(data, size, max_size);
		}
		memcpy(data, hdr, 16);
		return 16 + cl;
	}
	if (n + 16 > max_size)
		return LLVMFuzzerMutate(data, size, max_size);
	memcpy(data, hdr, 16);
	memcpy(data + 16, out, n);
	return 16 + n;
}
