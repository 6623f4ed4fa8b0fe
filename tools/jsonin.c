// SPDX-License-Identifier: GPL-2.0
/*
 * A strict JSON reader: recursive descent over a buffer, into a tree of
 * values that remember their line.  See jsonin.h for what it refuses.
 *
 * Why not json-c (what libnvme uses): it tells no line of a value, and
 * nvmecfg names the line of every warning and error in config.json; the
 * reader is a few hundred lines with its own unit tests, and the tool
 * gains no library to install, package and copy into an initramfs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonin.h"
#include "opts.h"	/* opts_shown(): a name that is a key is not quoted */

struct jin_parser {
	const unsigned char *s;
	size_t len;
	size_t pos;
	unsigned int line;
	size_t line_start;	/* offset of the current line */
	char *err;
	size_t errlen;
	int nomem;
};

static int fail(struct jin_parser *p, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (p->err[0])
		return -1;	/* the first error is the one to tell */
	n = snprintf(p->err, p->errlen, "line %u, column %zu: ", p->line,
		     p->pos - p->line_start + 1);
	if (n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int oom(struct jin_parser *p)
{
	p->nomem = 1;
	return fail(p, "out of memory");
}

/* What is at the current position, for "expected X, got Y". */
static const char *here(const struct jin_parser *p, char *buf, size_t len)
{
	unsigned char c;

	if (p->pos >= p->len)
		return "the end of the file";
	c = p->s[p->pos];
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static void skip_ws(struct jin_parser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];

		if (c == '\n') {
			p->line++;
			p->line_start = p->pos + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		p->pos++;
	}
}

static int hex4(const unsigned char *s, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		unsigned char c = s[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static size_t put_utf8(char *out, unsigned int cp)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xc0 | cp >> 6;
		out[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xe0 | cp >> 12;
		out[1] = 0x80 | ((cp >> 6) & 0x3f);
		out[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | cp >> 18;
	out[1] = 0x80 | ((cp >> 12) & 0x3f);
	out[2] = 0x80 | ((cp >> 6) & 0x3f);
	out[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/*
 * The length of the valid UTF-8 sequence at @s (at most @left bytes), or
 * 0: no overlong forms, no surrogates, nothing above U+10FFFF.
 */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (left < n)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	}
	return n;
}

/*
 * Free @buf of @size bytes zeroed: a string may be (part of) a key, even
 * one that fails to parse.
 */
static void zfree(char *buf, size_t size)
{
	explicit_bzero(buf, size);
	free(buf);
}

/* A string at p->pos (its opening quote) into a new C string. */
static int parse_string(struct jin_parser *p, char **out)
{
	size_t start = ++p->pos, end = start, n = 0;
	char *buf;

	/* Find the closing quote first: the result is never longer. */
	while (end < p->len && p->s[end] != '"')
		end += p->s[end] == '\\' ? 2 : 1;
	if (end >= p->len)
		return fail(p, "unterminated string");
	buf = malloc(end - start + 1);
	if (!buf)
		return oom(p);

	while (p->pos < end) {
		unsigned char c = p->s[p->pos];
		unsigned int cp, lo;
		size_t k;

		if (c < 0x20) {
			zfree(buf, end - start + 1);
			return fail(p, "control character 0x%02x in a string (write it as an escape)",
				    c);
		}
		if (c >= 0x80) {
			k = utf8_len(p->s + p->pos, end - p->pos);
			if (!k) {
				zfree(buf, end - start + 1);
				return fail(p, "invalid UTF-8 in a string");
			}
			memcpy(buf + n, p->s + p->pos, k);
			n += k;
			p->pos += k;
			continue;
		}
		if (c != '\\') {
			buf[n++] = c;
			p->pos++;
			continue;
		}
		c = p->s[p->pos + 1];
		switch (c) {
		case '"': case '\\': case '/':
			buf[n++] = c;
			break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (end - p->pos < 6 || hex4(p->s + p->pos + 2, &cp)) {
				zfree(buf, end - start + 1);
				return fail(p, "invalid \\u escape (four hex digits)");
			}
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				zfree(buf, end - start + 1);
				return fail(p, "\\u%04x: a UTF-16 low surrogate without a high one",
					    cp);
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (end - p->pos < 12 ||
				    p->s[p->pos + 6] != '\\' ||
				    p->s[p->pos + 7] != 'u' ||
				    hex4(p->s + p->pos + 8, &lo) ||
				    lo < 0xdc00 || lo > 0xdfff) {
					zfree(buf, end - start + 1);
					return fail(p, "\\u%04x: a UTF-16 high surrogate without a low one",
						    cp);
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
				p->pos += 6;
			}
			if (!cp) {
				zfree(buf, end - start + 1);
				return fail(p, "\\u0000 in a string");
			}
			n += put_utf8(buf + n, cp);
			p->pos += 4;
			break;
		default:
			zfree(buf, end - start + 1);
			if (c > 0x20 && c < 0x7f)
				return fail(p, "invalid escape '\\%c'", c);
			return fail(p, "invalid escape");
		}
		p->pos += 2;
	}
	buf[n] = '\0';
	p->pos = end + 1;
	*out = buf;
	return 0;
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, kept as text. */
static int parse_number(struct jin_parser *p, struct jin_value *v)
{
	size_t start = p->pos, i = p->pos;

	if (i < p->len && p->s[i] == '-')
		i++;
	if (i >= p->len || !is_digit(p->s[i]))
		return fail(p, "invalid number");
	if (p->s[i] == '0') {
		i++;
		if (i < p->len && is_digit(p->s[i]))
			return fail(p, "invalid number (a leading zero)");
	} else {
		while (i < p->len && is_digit(p->s[i]))
			i++;
	}
	if (i < p->len && p->s[i] == '.') {
		i++;
		if (i >= p->len || !is_digit(p->s[i]))
			return fail(p, "invalid number (no digit after '.')");
		while (i < p->len && is_digit(p->s[i]))
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (i >= p->len || !is_digit(p->s[i]))
			return fail(p, "invalid number (no digit in the exponent)");
		while (i < p->len && is_digit(p->s[i]))
			i++;
	}
	v->str = strndup((const char *)p->s + start, i - start);
	if (!v->str)
		return oom(p);
	v->type = JIN_NUMBER;
	p->pos = i;
	return 0;
}

static int literal(struct jin_parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return -1;
	p->pos += n;
	return 0;
}

static int parse_value(struct jin_parser *p, struct jin_value *v, int depth);

/* Room for one more of @nr elements of @size in *@arr. */
static int grow(struct jin_parser *p, void **arr, size_t nr, size_t size)
{
	void *n;

	/* Room for a power of two: full when nr is one (or 0). */
	if (nr && (nr & (nr - 1)))
		return 0;
	if (nr > SIZE_MAX / 2 / size)
		return oom(p);
	n = realloc(*arr, (nr ? 2 * nr : 1) * size);
	if (!n)
		return oom(p);
	*arr = n;
	return 0;
}

static int parse_array(struct jin_parser *p, struct jin_value *v, int depth)
{
	char buf[16];

	v->type = JIN_ARRAY;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ']') {
		p->pos++;
		return 0;
	}
	for (;;) {
		if (grow(p, (void **)&v->items, v->nr, sizeof(*v->items)))
			return -1;
		memset(&v->items[v->nr], 0, sizeof(*v->items));
		if (parse_value(p, &v->items[v->nr++], depth))
			return -1;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == ']') {
			p->pos++;
			return 0;
		}
		return fail(p, "expected ',' or ']' after an array item, got %s",
			    here(p, buf, sizeof(buf)));
	}
}

static int key_cmp(const void *a, const void *b)
{
	const struct jin_member *const *x = a, *const *y = b;
	int c = strcmp((*x)->key, (*y)->key);

	if (c)
		return c;
	return *x < *y ? -1 : *x > *y;
}

/* The member whose key an earlier one has, soonest in the file, or NULL. */
static const struct jin_member *duplicate_key(struct jin_parser *p,
					      const struct jin_value *v)
{
	const struct jin_member **idx, *dup = NULL;
	size_t i;

	if (v->nr < 2)
		return NULL;
	idx = malloc(v->nr * sizeof(*idx));
	if (!idx) {
		oom(p);
		return NULL;
	}
	for (i = 0; i < v->nr; i++)
		idx[i] = &v->members[i];
	/* Sorted by key, then by place: the later of a pair is the second. */
	qsort(idx, v->nr, sizeof(*idx), key_cmp);
	for (i = 1; i < v->nr; i++) {
		if (strcmp(idx[i - 1]->key, idx[i]->key))
			continue;
		if (!dup || idx[i] < dup)
			dup = idx[i];
	}
	free(idx);
	return dup;
}

static int parse_object(struct jin_parser *p, struct jin_value *v, int depth)
{
	const struct jin_member *dup;
	char buf[16];

	v->type = JIN_OBJECT;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == '}') {
		p->pos++;
		return 0;
	}
	for (;;) {
		struct jin_member *m;

		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != '"')
			return fail(p, "expected a key (a string in \"\"), got %s",
				    here(p, buf, sizeof(buf)));
		if (grow(p, (void **)&v->members, v->nr, sizeof(*v->members)))
			return -1;
		m = &v->members[v->nr];
		memset(m, 0, sizeof(*m));
		m->val.line = p->line;
		if (parse_string(p, &m->key))
			return -1;
		v->nr++;
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != ':')
			return fail(p, "expected ':' after the key \"%s\", got %s",
				    opts_shown(m->key), here(p, buf, sizeof(buf)));
		p->pos++;
		if (parse_value(p, &m->val, depth))
			return -1;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == '}') {
			p->pos++;
			break;
		}
		return fail(p, "expected ',' or '}' after the member \"%s\", got %s",
			    opts_shown(m->key), here(p, buf, sizeof(buf)));
	}
	dup = duplicate_key(p, v);
	if (dup) {
		/* Found at the end of the object: its line, no column. */
		if (!p->err[0])
			snprintf(p->err, p->errlen,
				 "line %u: duplicate key \"%s\"",
				 dup->val.line, opts_shown(dup->key));
		return -1;
	}
	return p->nomem ? -1 : 0;
}

static int parse_value(struct jin_parser *p, struct jin_value *v, int depth)
{
	char buf[16];

	skip_ws(p);
	v->line = p->line;
	if (p->pos >= p->len)
		return fail(p, "expected a value, got the end of the file");
	switch (p->s[p->pos]) {
	case '{':
	case '[':
		if (depth >= JIN_MAX_DEPTH)
			return fail(p, "nested deeper than %d levels",
				    JIN_MAX_DEPTH);
		if (p->s[p->pos] == '{')
			return parse_object(p, v, depth + 1);
		return parse_array(p, v, depth + 1);
	case '"':
		if (parse_string(p, &v->str))
			return -1;
		v->type = JIN_STRING;
		return 0;
	case 't':
	case 'f':
	case 'n':
		if (!literal(p, "true")) {
			v->type = JIN_BOOL;
			v->b = true;
			return 0;
		}
		if (!literal(p, "false")) {
			v->type = JIN_BOOL;
			return 0;
		}
		if (!literal(p, "null")) {
			v->type = JIN_NULL;
			return 0;
		}
		return fail(p, "invalid literal (true, false or null?)");
	default:
		if (p->s[p->pos] == '-' || is_digit(p->s[p->pos]))
			return parse_number(p, v);
		return fail(p, "expected a value, got %s",
			    here(p, buf, sizeof(buf)));
	}
}

int jin_parse(const char *text, size_t len, struct jin_value *root,
	      char *err, size_t errlen)
{
	struct jin_parser p = {
		.s = (const unsigned char *)text,
		.len = len,
		.line = 1,
		.err = err,
		.errlen = errlen,
	};
	char buf[16];
	int ret;

	err[0] = '\0';
	memset(root, 0, sizeof(*root));
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		p.pos = p.line_start = 3;
	skip_ws(&p);
	if (p.pos >= p.len) {
		fail(&p, "no JSON value (an empty file)");
		return -1;
	}
	ret = parse_value(&p, root, 0);
	if (!ret) {
		skip_ws(&p);
		if (p.pos < p.len)
			ret = fail(&p, "%s after the end of the document",
				   here(&p, buf, sizeof(buf)));
	}
	if (ret) {
		jin_free(root);
		return p.nomem ? -ENOMEM : -1;
	}
	return 0;
}

void jin_free(struct jin_value *v)
{
	size_t i;

	switch (v->type) {
	case JIN_ARRAY:
		for (i = 0; i < v->nr; i++)
			jin_free(&v->items[i]);
		break;
	case JIN_OBJECT:
		for (i = 0; i < v->nr; i++) {
			if (v->members[i].key)
				zfree(v->members[i].key,
				      strlen(v->members[i].key));
			jin_free(&v->members[i].val);
		}
		break;
	default:
		break;
	}
	free(v->items);
	free(v->members);
	/* Strings and names may be DH-HMAC-CHAP keys. */
	if (v->str)
		zfree(v->str, strlen(v->str));
	memset(v, 0, sizeof(*v));
}

const char *jin_type_name(enum jin_type type)
{
	switch (type) {
	case JIN_NULL:		return "null";
	case JIN_BOOL:		return "a boolean";
	case JIN_NUMBER:	return "a number";
	case JIN_STRING:	return "a string";
	case JIN_ARRAY:		return "an array";
	case JIN_OBJECT:	return "an object";
	}
	return "?";
}

int jin_integer(const struct jin_value *v, long long *n)
{
	char *end;

	if (v->type != JIN_NUMBER || strpbrk(v->str, ".eE"))
		return -EINVAL;
	errno = 0;
	*n = strtoll(v->str, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

const struct jin_member *jin_get(const struct jin_value *obj,
				 const char *key)
{
	size_t i;

	if (obj->type != JIN_OBJECT)
		return NULL;
	for (i = 0; i < obj->nr; i++) {
		if (!strcmp(obj->members[i].key, key))
			return &obj->members[i];
	}
	return NULL;
}
