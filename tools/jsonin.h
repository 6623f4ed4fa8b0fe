/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A strict JSON reader (RFC 8259) for nvmecfg's input files: config.json.
 * The document becomes a tree of values, each with the line it starts
 * on, so that messages can point into the file.  Pure: no I/O.
 *
 * Strict means: one value and only white space around it (a UTF-8 byte
 * order mark is skipped); no comments, trailing commas, single quotes,
 * NaN or leading zeros; strings of valid UTF-8 without control
 * characters; no duplicate keys in an object.  A "\u0000" escape is
 * refused too: the strings are C strings.
 */
#ifndef NVMECFG_JSONIN_H
#define NVMECFG_JSONIN_H

#include <stdbool.h>
#include <stddef.h>

/* Nesting deeper than this is refused (the reader recurses). */
#define JIN_MAX_DEPTH	64

enum jin_type {
	JIN_NULL,
	JIN_BOOL,
	JIN_NUMBER,
	JIN_STRING,
	JIN_ARRAY,
	JIN_OBJECT,
};

struct jin_member;

struct jin_value {
	enum jin_type type;
	unsigned int line;
	bool b;				/* JIN_BOOL */
	char *str;			/* JIN_STRING; JIN_NUMBER: its text */
	struct jin_value *items;	/* JIN_ARRAY */
	struct jin_member *members;	/* JIN_OBJECT, in the file's order */
	size_t nr;			/* of items or members */
};

struct jin_member {
	char *key;
	struct jin_value val;
};

/*
 * Parse @len bytes of @text into *@root.  0, or -1 with @err saying where
 * and why ("line 3, column 7: expected ':' after a key"); -ENOMEM.  The
 * tree is jin_free()d by the caller on success only.
 */
int jin_parse(const char *text, size_t len, struct jin_value *root,
	      char *err, size_t errlen);
void jin_free(struct jin_value *v);

/* "a string", "an object", ...: for messages. */
const char *jin_type_name(enum jin_type type);

/*
 * A JIN_NUMBER as a whole number: 0, -EINVAL if it has a fraction or an
 * exponent ("4.0", "1e3"), -ERANGE beyond long long.
 */
int jin_integer(const struct jin_value *v, long long *n);

/* The member @key of object @obj, or NULL. */
const struct jin_member *jin_get(const struct jin_value *obj,
				 const char *key);

#endif /* NVMECFG_JSONIN_H */
