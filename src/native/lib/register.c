/* The daemon's Register call (proto/gfxstats/v1/gfxstats.proto) spoken from C: one gRPC
 * server-streaming call on a fresh HTTP/2 connection over the Unix socket (RFC 9113, RFC 7541,
 * gRPC over HTTP/2). Only what this call needs: the request goes out as one HEADERS and one DATA
 * frame; of the answer, DATA frames of stream 1 carry the BufferAssigned event, SETTINGS and PING
 * are acknowledged, and the trailers' grpc-status is read when it is not Huffman-coded. Runs on
 * the session's background thread only, never on a rendering thread. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define H2_DATA 0x0
#define H2_HEADERS 0x1
#define H2_RST_STREAM 0x3
#define H2_SETTINGS 0x4
#define H2_PING 0x6
#define H2_GOAWAY 0x7
#define H2_CONTINUATION 0x9
#define FLAG_ACK 0x1
#define FLAG_END_STREAM 0x1
#define FLAG_END_HEADERS 0x4
#define FLAG_PADDED 0x8
#define FLAG_PRIORITY 0x20
#define MAX_FRAME 16384
#define MAX_MESSAGE 65536

static const char PREFACE[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

int gfx_reg_connect(struct gfx_reg_conn *c, const char *socket_path) {
    memset(c, 0, sizeof *c);
    c->fd = -1;
    c->grpc_status = -1;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(socket_path) >= sizeof addr.sun_path) {
        return -ENAMETOOLONG;
    }
    strcpy(addr.sun_path, socket_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -errno;
    }
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    c->fd = fd;
    return 0;
}

void gfx_reg_close(struct gfx_reg_conn *c) {
    if (c->fd >= 0) {
        close(c->fd);
    }
    free(c->in);
    free(c->msg);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

/* Never waits: a peer that does not read what it is sent (its acks piling up in the socket) is
 * no daemon, and the session thread must stay free to stop when the session closes (it is joined
 * then, at the app's exit too). Until session 34 a peer flooding PINGs without reading the answers
 * blocked the thread in send() for good, and the app's exit with it. */
static int write_all(int fd, const uint8_t *p, size_t n) {
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

size_t gfx_h2_frame_header(uint8_t *p, uint32_t length, uint8_t type, uint8_t flags, uint32_t stream) {
    p[0] = (uint8_t)(length >> 16);
    p[1] = (uint8_t)(length >> 8);
    p[2] = (uint8_t)length;
    p[3] = type;
    p[4] = flags;
    p[5] = (uint8_t)(stream >> 24);
    p[6] = (uint8_t)(stream >> 16);
    p[7] = (uint8_t)(stream >> 8);
    p[8] = (uint8_t)stream;
    return 9;
}

/* HPACK "literal header field without indexing, new name", lengths under 127, no Huffman. */
size_t gfx_hpack_literal(uint8_t *p, const char *name, const char *value) {
    size_t n = strlen(name);
    size_t v = strlen(value);
    size_t o = 0;
    p[o++] = 0x00;
    p[o++] = (uint8_t)n;
    memcpy(p + o, name, n);
    o += n;
    p[o++] = (uint8_t)v;
    memcpy(p + o, value, v);
    return o + v;
}

static size_t varint(uint8_t *p, uint64_t v) {
    size_t o = 0;
    while (v >= 0x80) {
        p[o++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[o++] = (uint8_t)v;
    return o;
}

static size_t pb_string(uint8_t *p, uint32_t field, const char *s) {
    size_t n = strlen(s);
    size_t o = varint(p, field << 3 | 2);
    o += varint(p + o, n);
    memcpy(p + o, s, n);
    return o + n;
}

int gfx_reg_send(struct gfx_reg_conn *c, const char *package, int64_t version, int32_t pipeline,
                 const char *adopt_path, const char *adopt_id) {
    /* RegisterRequest: package (<= 255), version, adopt path (< 4096), id (<= 64), pipeline, native_rings. */
    uint8_t req[4600];
    size_t r = pb_string(req, 1, package);
    if (version != 0) {
        r += varint(req + r, 2 << 3 | 0);
        r += varint(req + r, (uint64_t)version);
    }
    if (adopt_path && adopt_path[0]) {
        r += pb_string(req + r, 3, adopt_path);
        r += pb_string(req + r, 4, adopt_id);
    }
    if (pipeline != 0) {
        r += varint(req + r, 5 << 3 | 0);
        r += varint(req + r, (uint64_t)(int64_t)pipeline);
    }
    /* native_rings (field 1000): this client's rings may live in the buffer's ring group, where the
     * daemon counts them after a SIGKILL; a daemon of an earlier release skips the field. */
    r += varint(req + r, 1000u << 3 | 0);
    r += varint(req + r, 1);
    uint8_t out[5200];
    size_t o = 0;
    memcpy(out, PREFACE, sizeof PREFACE - 1);
    o += sizeof PREFACE - 1;
    /* SETTINGS: no push. */
    o += gfx_h2_frame_header(out + o, 6, H2_SETTINGS, 0, 0);
    static const uint8_t no_push[6] = {0, 2, 0, 0, 0, 0};
    memcpy(out + o, no_push, 6);
    o += 6;
    uint8_t hb[512];
    size_t h = 0;
    h += gfx_hpack_literal(hb + h, ":method", "POST");
    h += gfx_hpack_literal(hb + h, ":scheme", "http");
    h += gfx_hpack_literal(hb + h, ":path", "/gfxstats.v1.GfxStats/Register");
    h += gfx_hpack_literal(hb + h, ":authority", "localhost");
    h += gfx_hpack_literal(hb + h, "content-type", "application/grpc");
    h += gfx_hpack_literal(hb + h, "te", "trailers");
    h += gfx_hpack_literal(hb + h, "user-agent", "gfxstats-native/1");
    o += gfx_h2_frame_header(out + o, (uint32_t)h, H2_HEADERS, FLAG_END_HEADERS, 1);
    memcpy(out + o, hb, h);
    o += h;
    o += gfx_h2_frame_header(out + o, (uint32_t)(5 + r), H2_DATA, FLAG_END_STREAM, 1);
    out[o++] = 0;
    out[o++] = (uint8_t)(r >> 24);
    out[o++] = (uint8_t)(r >> 16);
    out[o++] = (uint8_t)(r >> 8);
    out[o++] = (uint8_t)r;
    memcpy(out + o, req, r);
    o += r;
    return write_all(c->fd, out, o);
}

/* ---- protobuf decoding of RegisterEvent { BufferAssigned assigned = 1; } */

static int read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
    uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*p >= end) {
            return -1;
        }
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

static int skip_field(const uint8_t **p, const uint8_t *end, unsigned wire) {
    uint64_t v;
    switch (wire) {
    case 0:
        return read_varint(p, end, &v);
    case 1:
        if (end - *p < 8) return -1;
        *p += 8;
        return 0;
    case 2:
        if (read_varint(p, end, &v) || v > (uint64_t)(end - *p)) return -1;
        *p += v;
        return 0;
    case 5:
        if (end - *p < 4) return -1;
        *p += 4;
        return 0;
    default:
        return -1;
    }
}

static int copy_string(const uint8_t **p, const uint8_t *end, char *dst, size_t cap) {
    uint64_t n;
    if (read_varint(p, end, &n) || n > (uint64_t)(end - *p) || n >= cap) {
        return -1;
    }
    memcpy(dst, *p, n);
    dst[n] = 0;
    *p += n;
    return 0;
}

static int parse_assigned(const uint8_t *p, const uint8_t *end, struct gfx_assigned *a) {
    memset(a, 0, sizeof *a);
    int found = 0;
    while (p < end) {
        uint64_t key;
        if (read_varint(&p, end, &key)) return -1;
        unsigned field = (unsigned)(key >> 3);
        unsigned wire = (unsigned)(key & 7);
        if (field == 1 && wire == 2) {
            uint64_t n;
            if (read_varint(&p, end, &n) || n > (uint64_t)(end - p)) return -1;
            const uint8_t *q = p;
            const uint8_t *qe = p + n;
            p = qe;
            found = 1;
            while (q < qe) {
                uint64_t k, v;
                if (read_varint(&q, qe, &k)) return -1;
                unsigned f = (unsigned)(k >> 3);
                unsigned w = (unsigned)(k & 7);
                if (f == 1 && w == 2) {
                    if (copy_string(&q, qe, a->path, sizeof a->path)) return -1;
                } else if (f == 2 && w == 2) {
                    if (copy_string(&q, qe, a->reg_id, sizeof a->reg_id)) return -1;
                } else if (f >= 3 && f <= 5 && w == 0) {
                    if (read_varint(&q, qe, &v)) return -1;
                    if (f == 3) a->layout_version = (int32_t)v;
                    else if (f == 4) a->size = (int64_t)v;
                    else a->adopted = v != 0;
                } else if (skip_field(&q, qe, w)) {
                    return -1;
                }
            }
        } else if (skip_field(&p, end, wire)) {
            return -1;
        }
    }
    return found && a->path[0] && a->reg_id[0] ? 0 : -1;
}

/* ---- HPACK, only to find grpc-status and grpc-message in the trailers */

static int hpack_int(const uint8_t **p, const uint8_t *end, int prefix, uint64_t *v) {
    if (*p >= end) return -1;
    uint64_t max = (1u << prefix) - 1;
    uint64_t x = *(*p)++ & max;
    if (x < max) {
        *v = x;
        return 0;
    }
    for (int shift = 0; shift < 28; shift += 7) {
        if (*p >= end) return -1;
        uint8_t b = *(*p)++;
        x += (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* A string literal: points at its bytes; huffman set when coded (then not read here). */
static int hpack_str(const uint8_t **p, const uint8_t *end, const uint8_t **s, size_t *n, int *huffman) {
    if (*p >= end) return -1;
    *huffman = (**p & 0x80) != 0;
    uint64_t len;
    if (hpack_int(p, end, 7, &len) || len > (uint64_t)(end - *p)) return -1;
    *s = *p;
    *n = (size_t)len;
    *p += len;
    return 0;
}

static void header_seen(struct gfx_reg_conn *c, const uint8_t *name, size_t nn, int nh, const uint8_t *value,
                        size_t vn, int vh) {
    if (nh || vh) {
        return;
    }
    if (nn == 11 && memcmp(name, "grpc-status", 11) == 0 && vn > 0 && vn < 4) {
        int32_t s = 0;
        for (size_t i = 0; i < vn; i++) {
            if (value[i] < '0' || value[i] > '9') return;
            s = s * 10 + (value[i] - '0');
        }
        c->grpc_status = s;
    } else if (nn == 12 && memcmp(name, "grpc-message", 12) == 0) {
        /* Percent-encoded (gRPC over HTTP/2); control characters are not passed on to the log. */
        size_t o = 0;
        for (size_t i = 0; i < vn && o < sizeof c->grpc_message - 1; i++) {
            unsigned ch = value[i];
            if (ch == '%' && i + 2 < vn) {
                char hex[3] = {(char)value[i + 1], (char)value[i + 2], 0};
                char *end;
                unsigned long x = strtoul(hex, &end, 16);
                if (*end == 0) {
                    ch = (unsigned)x;
                    i += 2;
                }
            }
            c->grpc_message[o++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
        }
        c->grpc_message[o] = 0;
    }
}

/* Reads a header block for grpc-status/grpc-message. Names from the static or dynamic table are
 * not those two (the static table has neither; a fresh connection's first block defines them). */
static void scan_header_block(struct gfx_reg_conn *c, const uint8_t *p, const uint8_t *end) {
    while (p < end) {
        uint8_t b = *p;
        uint64_t idx;
        const uint8_t *name = NULL, *value;
        size_t nn = 0, vn;
        int nh = 1, vh;
        if (b & 0x80) { /* indexed */
            if (hpack_int(&p, end, 7, &idx)) return;
            continue;
        }
        int prefix;
        if ((b & 0xc0) == 0x40) {
            prefix = 6;
        } else if ((b & 0xe0) == 0x20) { /* dynamic table size update */
            if (hpack_int(&p, end, 5, &idx)) return;
            continue;
        } else {
            prefix = 4;
        }
        if (hpack_int(&p, end, prefix, &idx)) return;
        if (idx == 0 && hpack_str(&p, end, &name, &nn, &nh)) return;
        if (hpack_str(&p, end, &value, &vn, &vh)) return;
        if (idx == 0) {
            header_seen(c, name, nn, nh, value, vn, vh);
        }
    }
}

static int ensure(uint8_t **buf, size_t *cap, size_t need) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 4096;
    while (n < need) n *= 2;
    uint8_t *b = realloc(*buf, n);
    if (!b) return -1;
    *buf = b;
    *cap = n;
    return 0;
}

static int on_data(struct gfx_reg_conn *c, const uint8_t *p, size_t n, struct gfx_assigned *out) {
    if (c->msg_len + n > MAX_MESSAGE || ensure(&c->msg, &c->msg_cap, c->msg_len + n)) {
        return GFX_REG_ENDED;
    }
    memcpy(c->msg + c->msg_len, p, n);
    c->msg_len += n;
    if (c->msg_len < 5) {
        return GFX_REG_IDLE;
    }
    uint32_t len = (uint32_t)c->msg[1] << 24 | (uint32_t)c->msg[2] << 16 | (uint32_t)c->msg[3] << 8 | c->msg[4];
    if (c->msg[0] != 0 || len > MAX_MESSAGE) {
        return GFX_REG_ENDED;
    }
    if (c->msg_len < 5 + (size_t)len) {
        return GFX_REG_IDLE;
    }
    int r = parse_assigned(c->msg + 5, c->msg + 5 + len, out);
    memmove(c->msg, c->msg + 5 + len, c->msg_len - 5 - len);
    c->msg_len -= 5 + len;
    return r == 0 ? GFX_REG_ASSIGNED : GFX_REG_ENDED;
}

/* Handles one complete frame at c->in; returns an event or 0 to go on. */
static int on_frame(struct gfx_reg_conn *c, uint32_t length, uint8_t type, uint8_t flags, uint32_t stream,
                    const uint8_t *payload, struct gfx_assigned *out) {
    switch (type) {
    case H2_SETTINGS:
        if (!(flags & FLAG_ACK)) {
            uint8_t ack[9];
            gfx_h2_frame_header(ack, 0, H2_SETTINGS, FLAG_ACK, 0);
            if (write_all(c->fd, ack, 9)) return GFX_REG_ENDED;
        }
        return 0;
    case H2_PING:
        if (!(flags & FLAG_ACK) && length == 8) {
            uint8_t pong[17];
            gfx_h2_frame_header(pong, 8, H2_PING, FLAG_ACK, 0);
            memcpy(pong + 9, payload, 8);
            if (write_all(c->fd, pong, 17)) return GFX_REG_ENDED;
        }
        return 0;
    case H2_GOAWAY:
    case H2_RST_STREAM:
        return stream == 0 || stream == 1 ? GFX_REG_ENDED : 0;
    case H2_DATA: {
        if (stream != 1) return 0;
        const uint8_t *p = payload;
        size_t n = length;
        if (flags & FLAG_PADDED) {
            if (n < 1 || payload[0] >= n) return GFX_REG_ENDED;
            n -= 1u + payload[0];
            p++;
        }
        int r = on_data(c, p, n, out);
        if (r == GFX_REG_IDLE) r = 0;
        if (r == 0 && (flags & FLAG_END_STREAM)) r = GFX_REG_ENDED;
        return r;
    }
    case H2_HEADERS:
    case H2_CONTINUATION: {
        const uint8_t *p = payload;
        size_t n = length;
        if (type == H2_HEADERS) {
            if (flags & FLAG_PADDED) {
                if (n < 1 || payload[0] >= n) return GFX_REG_ENDED;
                n -= 1u + payload[0];
                p++;
            }
            if (flags & FLAG_PRIORITY) {
                if (n < 5) return GFX_REG_ENDED;
                p += 5;
                n -= 5;
            }
        }
        if (stream == 1) {
            /* A block split over CONTINUATION frames is scanned per frame: the status fields are
             * short and come whole in practice; a split one just reads as unknown. */
            scan_header_block(c, p, p + n);
            if (type == H2_HEADERS && c->headers_seen && (flags & FLAG_END_STREAM)) return GFX_REG_ENDED;
            if (type == H2_HEADERS && (flags & FLAG_END_STREAM)) return GFX_REG_ENDED; /* trailers only */
            c->headers_seen = 1;
        }
        return 0;
    }
    default:
        return 0;
    }
}

int gfx_reg_read(struct gfx_reg_conn *c, struct gfx_assigned *out) {
    if (ensure(&c->in, &c->in_cap, c->in_len + MAX_FRAME + 9)) {
        return GFX_REG_ENDED;
    }
    ssize_t r = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
    if (r == 0) {
        return GFX_REG_ENDED;
    }
    if (r < 0 && errno != EAGAIN && errno != EINTR) {
        return GFX_REG_ENDED;
    }
    if (r > 0) {
        c->in_len += (size_t)r;
    }
    size_t off = 0;
    int event = GFX_REG_IDLE;
    while (c->in_len - off >= 9) {
        const uint8_t *h = c->in + off;
        uint32_t length = (uint32_t)h[0] << 16 | (uint32_t)h[1] << 8 | h[2];
        if (length > MAX_FRAME) {
            return GFX_REG_ENDED;
        }
        if (c->in_len - off < 9 + (size_t)length) {
            break;
        }
        uint32_t stream = ((uint32_t)h[5] << 24 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 8 | h[8]) & 0x7fffffffu;
        int e = on_frame(c, length, h[3], h[4], stream, h + 9, out);
        off += 9 + (size_t)length;
        if (e == GFX_REG_ENDED) {
            return GFX_REG_ENDED;
        }
        if (e == GFX_REG_ASSIGNED) {
            event = GFX_REG_ASSIGNED;
            break; /* the caller takes it; the rest stays buffered */
        }
    }
    memmove(c->in, c->in + off, c->in_len - off);
    c->in_len -= off;
    return event;
}
