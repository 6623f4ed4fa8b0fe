// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of nvmecfg's strict JSON reader (jsonin.c): what RFC 8259
 * allows is read, with the lines of the values; everything else is
 * refused with the line and column of the fault, deep and huge input
 * included.
 */
#include <errno.h>
#include <limits.h>

#include "ktap.h"
#include "jsonin.h"

static struct jin_value root;
static char err[256];

static int parse(const char *text)
{
	return jin_parse(text, strlen(text), &root, err, sizeof(err));
}

/* @text is refused with a message containing @want. */
static void refused(const char *text, const char *want)
{
	int ret = parse(text);

	CHECK(ret == -1);
	if (!ret) {
		printf("# accepted: %s\n", text);
		jin_free(&root);
	}
	CHECK_CONTAINS(err, want);
}

static void scalars(void)
{
	long long n;

	CHECK(!parse("true"));
	CHECK(root.type == JIN_BOOL && root.b);
	jin_free(&root);
	CHECK(!parse(" false "));
	CHECK(root.type == JIN_BOOL && !root.b);
	jin_free(&root);
	CHECK(!parse("null"));
	CHECK(root.type == JIN_NULL);
	jin_free(&root);
	CHECK(!parse("\"x\""));
	CHECK(root.type == JIN_STRING);
	CHECK_STR(root.str, "x");
	jin_free(&root);
	CHECK(!parse("-0"));
	CHECK(root.type == JIN_NUMBER && !jin_integer(&root, &n) && n == 0);
	jin_free(&root);
	CHECK(!parse("4420"));
	CHECK(!jin_integer(&root, &n) && n == 4420);
	CHECK_STR(root.str, "4420");
	jin_free(&root);
}

static void numbers(void)
{
	long long n;

	CHECK(!parse("[0, -1, 12, 1.5, -0.25e+3, 1E2, 9223372036854775807,"
		     " 9223372036854775808, -9223372036854775808]"));
	CHECK(root.type == JIN_ARRAY && root.nr == 9);
	if (root.nr == 9) {
		CHECK(!jin_integer(&root.items[1], &n) && n == -1);
		CHECK(!jin_integer(&root.items[2], &n) && n == 12);
		CHECK(jin_integer(&root.items[3], &n) == -EINVAL);
		CHECK(jin_integer(&root.items[4], &n) == -EINVAL);
		CHECK_STR(root.items[4].str, "-0.25e+3");
		CHECK(jin_integer(&root.items[5], &n) == -EINVAL);
		CHECK(!jin_integer(&root.items[6], &n) && n == LLONG_MAX);
		CHECK(jin_integer(&root.items[7], &n) == -ERANGE);
		CHECK(!jin_integer(&root.items[8], &n) && n == LLONG_MIN);
	}
	jin_free(&root);
	/* Not a number: jin_integer() says so rather than guessing. */
	CHECK(!parse("\"4\""));
	CHECK(jin_integer(&root, &n) == -EINVAL);
	jin_free(&root);

	refused("01", "leading zero");
	refused("-", "invalid number");
	refused("1.", "no digit after '.'");
	refused(".5", "expected a value, got '.'");
	refused("1e", "no digit in the exponent");
	refused("1e+", "no digit in the exponent");
	refused("+1", "expected a value, got '+'");
	refused("0x10", "'x' after the end");
	refused("NaN", "expected a value, got 'N'");
	refused("Infinity", "expected a value, got 'I'");
	refused("-Infinity", "invalid number");
}

static void strings(void)
{
	CHECK(!parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""));
	CHECK_STR(root.str, "a\"b\\c/d\b\f\n\r\t");
	jin_free(&root);
	/* \u escapes to UTF-8, a surrogate pair to one 4-byte sequence. */
	CHECK(!parse("\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\""));
	CHECK_STR(root.str, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	jin_free(&root);
	/* Raw UTF-8 passes as it is. */
	CHECK(!parse("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""));
	CHECK_STR(root.str, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	jin_free(&root);
	CHECK(!parse("\"\""));
	CHECK_STR(root.str, "");
	jin_free(&root);

	refused("\"abc", "unterminated string");
	refused("\"abc\\\"", "unterminated string");
	refused("\"a\nb\"", "control character 0x0a");
	refused("\"a\tb\"", "control character 0x09");
	refused("\"\\x\"", "invalid escape '\\x'");
	refused("\"\\u12\"", "invalid \\u escape");
	refused("\"\\u12g4\"", "invalid \\u escape");
	refused("\"\\u0000\"", "\\u0000 in a string");
	refused("\"\\ud800\"", "high surrogate without a low one");
	refused("\"\\ud800\\u0041\"", "high surrogate without a low one");
	refused("\"\\udc00\"", "low surrogate without a high one");
	refused("'x'", "expected a value, got '''");
	/* Invalid UTF-8: a stray continuation, overlong, surrogate, > 10FFFF. */
	refused("\"\x80\"", "invalid UTF-8");
	refused("\"\xc0\xaf\"", "invalid UTF-8");
	refused("\"\xe0\x80\xaf\"", "invalid UTF-8");
	refused("\"\xed\xa0\x80\"", "invalid UTF-8");
	refused("\"\xf4\x90\x80\x80\"", "invalid UTF-8");
	refused("\"\xe2\x82\"", "invalid UTF-8");
	refused("\"\xff\"", "invalid UTF-8");
}

/* A NUL byte in a string ends no C string early: it is refused. */
static void nul_byte(void)
{
	static const char text[] = "\"a\0b\"";

	CHECK(jin_parse(text, sizeof(text) - 1, &root, err, sizeof(err)) ==
	      -1);
	CHECK_CONTAINS(err, "control character 0x00");
}

static void objects(void)
{
	const struct jin_member *m;

	CHECK(!parse("{\n  \"a\": 1,\n  \"b\": [true, {}],\n  \"c\": {\"d\": null}\n}"));
	CHECK(root.type == JIN_OBJECT && root.nr == 3 && root.line == 1);
	if (root.nr == 3) {
		/* In the file's order, with their lines. */
		CHECK_STR(root.members[0].key, "a");
		CHECK(root.members[0].val.line == 2);
		CHECK_STR(root.members[1].key, "b");
		CHECK(root.members[1].val.line == 3);
		CHECK(root.members[1].val.type == JIN_ARRAY);
		CHECK(root.members[1].val.nr == 2);
		CHECK_STR(root.members[2].key, "c");
		CHECK(root.members[2].val.line == 4);
	}
	m = jin_get(&root, "c");
	CHECK(m && m->val.type == JIN_OBJECT);
	CHECK(m && jin_get(&m->val, "d") &&
	      jin_get(&m->val, "d")->val.type == JIN_NULL);
	CHECK(!jin_get(&root, "x"));
	CHECK(!jin_get(&root.members[0].val, "a"));
	jin_free(&root);

	CHECK(!parse("{}"));
	CHECK(root.type == JIN_OBJECT && !root.nr);
	jin_free(&root);
	CHECK(!parse("[]"));
	CHECK(root.type == JIN_ARRAY && !root.nr);
	jin_free(&root);
}

static void syntax_errors(void)
{
	refused("", "no JSON value");
	refused("  \n ", "no JSON value");
	refused("[1,]", "expected a value, got ']'");
	refused("[1 2]", "expected ',' or ']' after an array item, got '2'");
	refused("{\"a\":1,}", "expected a key");
	refused("{a:1}", "expected a key (a string in \"\"), got 'a'");
	refused("{\"a\" 1}", "expected ':' after the key \"a\", got '1'");
	refused("{\"a\":1 \"b\":2}",
		"expected ',' or '}' after the member \"a\", got '\"'");
	refused("[", "expected a value, got the end of the file");
	refused("{\"a\":", "expected a value, got the end of the file");
	refused("[1", "expected ',' or ']' after an array item, got the end");
	refused("tru", "invalid literal");
	refused("True", "expected a value, got 'T'");
	refused("nul", "invalid literal");
	refused("[] []", "'[' after the end of the document");
	refused("1 // comment", "'/' after the end");
	refused("/* c */ 1", "expected a value, got '/'");
	refused("{\"a\":1}\x01", "byte 0x01 after the end");
}

/* Where: the line and column of the fault. */
static void error_position(void)
{
	refused("[\n  1,\n  2,\n  x\n]", "line 4, column 3: ");
	refused("{\n\"a\": [1,\n\n  {\"b\" 2}]}", "line 4, column 8: ");
	/* A CR LF file counts lines by LF. */
	refused("[\r\n1,\r\n]", "line 3, column 1: ");
}

static void duplicate_keys(void)
{
	refused("{\n\"a\": 1,\n\"b\": 2,\n\"a\": 3\n}",
		"line 4: duplicate key \"a\"");
	/* Only within one object. */
	CHECK(!parse("[{\"a\": 1}, {\"a\": 2}, {\"x\": {\"a\": 3}, \"a\": 4}]"));
	jin_free(&root);
	/* The first duplicate in the file is the one told. */
	refused("{\"z\":1,\"a\":1,\"z\":2,\"a\":2}", "duplicate key \"z\"");
	/* A name that is a DH-HMAC-CHAP key is not quoted. */
	refused("{\"DHHC-1:00:SeKrEt:\":1,\"DHHC-1:00:SeKrEt:\":2}",
		"duplicate key \"<DH-HMAC-CHAP key>\"");
	CHECK(!strstr(err, "SeKrEt"));
	refused("{\"DHHC-1:00:SeKrEt:\" 1}",
		"expected ':' after the key \"<DH-HMAC-CHAP key>\"");
	CHECK(!strstr(err, "SeKrEt"));
}

static void bom_and_space(void)
{
	CHECK(!parse("\xef\xbb\xbf [ 1 ] \r\n\t"));
	CHECK(root.type == JIN_ARRAY && root.nr == 1);
	jin_free(&root);
	/* A byte order mark only at the start; other white space is not JSON's. */
	refused("[1, \xef\xbb\xbf 2]", "expected a value, got byte 0xef");
	refused("\f1", "expected a value, got byte 0x0c");
	refused("\xc2\xa0" "1", "expected a value, got byte 0xc2");
}

static char *repeat(const char *a, size_t n, const char *mid, const char *b)
{
	size_t la = strlen(a), lm = strlen(mid), lb = strlen(b), i;
	char *s = malloc(n * (la + lb) + lm + 1), *p = s;

	if (!s)
		return NULL;
	for (i = 0; i < n; i++, p += la)
		memcpy(p, a, la);
	memcpy(p, mid, lm);
	p += lm;
	for (i = 0; i < n; i++, p += lb)
		memcpy(p, b, lb);
	*p = '\0';
	return s;
}

/* Nesting is bounded: the reader recurses. */
static void depth(void)
{
	char *s;

	s = repeat("[", JIN_MAX_DEPTH, "1", "]");
	CHECK(s && !parse(s));
	jin_free(&root);
	free(s);
	s = repeat("[", JIN_MAX_DEPTH + 1, "1", "]");
	CHECK(s && parse(s) == -1);
	CHECK_CONTAINS(err, "nested deeper than 64 levels");
	free(s);
	s = repeat("{\"a\":", JIN_MAX_DEPTH + 1, "1", "}");
	CHECK(s && parse(s) == -1);
	CHECK_CONTAINS(err, "nested deeper than 64 levels");
	free(s);
	/* A million unclosed brackets: refused at once, no stack overflow. */
	s = repeat("[", 1000000, "", "");
	CHECK(s && parse(s) == -1);
	CHECK_CONTAINS(err, "nested deeper than 64 levels");
	free(s);
}

/* Large documents: many items, many keys, long strings. */
static void huge(void)
{
	size_t n = 200000, i, len = 0;
	char *s = malloc(n * 16 + 32);

	CHECK(s != NULL);
	if (!s)
		return;
	/* An object of 200000 distinct keys: the duplicate check scales. */
	len += sprintf(s + len, "{");
	for (i = 0; i < n; i++)
		len += sprintf(s + len, "%s\"k%zu\":%zu", i ? "," : "", i, i);
	len += sprintf(s + len, "}");
	CHECK(!jin_parse(s, len, &root, err, sizeof(err)));
	CHECK(root.type == JIN_OBJECT && root.nr == n);
	jin_free(&root);
	/* The same with one key twice, far apart. */
	len--;
	len += sprintf(s + len, ",\"k5\":0}");
	CHECK(jin_parse(s, len, &root, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "duplicate key \"k5\"");
	free(s);

	/* One string of a megabyte. */
	s = malloc(1024 * 1024 + 3);
	CHECK(s != NULL);
	if (!s)
		return;
	s[0] = '"';
	memset(s + 1, 'a', 1024 * 1024);
	s[1024 * 1024 + 1] = '"';
	s[1024 * 1024 + 2] = '\0';
	CHECK(!jin_parse(s, 1024 * 1024 + 2, &root, err, sizeof(err)));
	CHECK(root.type == JIN_STRING && strlen(root.str) == 1024 * 1024);
	jin_free(&root);
	free(s);
}

/* Only @len bytes are read: no terminating NUL needed, none past it. */
static void length_bound(void)
{
	CHECK(!jin_parse("[1]garbage", 3, &root, err, sizeof(err)));
	CHECK(root.type == JIN_ARRAY && root.nr == 1);
	jin_free(&root);
	CHECK(jin_parse("\"abc\"", 4, &root, err, sizeof(err)) == -1);
	CHECK_CONTAINS(err, "unterminated string");
	CHECK(jin_parse("\"\\u00", 5, &root, err, sizeof(err)) == -1);
	CHECK(jin_parse("tru", 3, &root, err, sizeof(err)) == -1);
	CHECK(jin_parse("12", 1, &root, err, sizeof(err)) == 0);
	CHECK_STR(root.str, "1");
	jin_free(&root);
}

static void type_names(void)
{
	CHECK_STR(jin_type_name(JIN_NULL), "null");
	CHECK_STR(jin_type_name(JIN_BOOL), "a boolean");
	CHECK_STR(jin_type_name(JIN_NUMBER), "a number");
	CHECK_STR(jin_type_name(JIN_STRING), "a string");
	CHECK_STR(jin_type_name(JIN_ARRAY), "an array");
	CHECK_STR(jin_type_name(JIN_OBJECT), "an object");
}

static const struct ktap_case cases[] = {
	KTAP_CASE(scalars),
	KTAP_CASE(numbers),
	KTAP_CASE(strings),
	KTAP_CASE(nul_byte),
	KTAP_CASE(objects),
	KTAP_CASE(syntax_errors),
	KTAP_CASE(error_position),
	KTAP_CASE(duplicate_keys),
	KTAP_CASE(bom_and_space),
	KTAP_CASE(depth),
	KTAP_CASE(huge),
	KTAP_CASE(length_bound),
	KTAP_CASE(type_names),
};

int main(void)
{
	return ktap_run("jsonin", cases, ARRAY_SIZE(cases));
}
