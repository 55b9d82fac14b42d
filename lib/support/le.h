/* Little-endian loads from byte buffers (unaligned-safe; compile to plain loads on x86). */
#ifndef PT_LE_H
#define PT_LE_H
#include <stdint.h>
#include <string.h>

static inline uint16_t pt_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t pt_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t pt_le64(const uint8_t *p)
{
	return (uint64_t)pt_le32(p) | (uint64_t)pt_le32(p + 4) << 32;
}

#endif
