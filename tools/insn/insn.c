// SPDX-License-Identifier: GPL-2.0
/*
 * rblk-insn: a QEMU TCG plugin counting the guest's instructions, for
 * `make bench-insn` (Documentation/benchmark.rst).
 *
 * TCG translates guest code into blocks; every kernel block gets two
 * inline counters, the instructions it executed and how often it ran,
 * keyed by its guest address (user space is one counter: only its total
 * is reported).  The guest delimits what it measures with
 * tools/insn/mark.c, a program that executes one no-op no compiler emits,
 * `nopw 0x4b4c4252(%rax,%rax,1)` ("RBLK" as its displacement), in user
 * space: the plugin watches that instruction and, each
 * time it runs, appends the counts since the previous mark to the output
 * file and restarts them:
 *
 *   mark SEQ                       SEQ = 1, 2, ... in execution order
 *   ADDR INSNS EXECS               one line a kernel block that ran (hex addr)
 *   user INSNS EXECS
 *   end SEQ
 *
 * The host maps the addresses to functions with the guest's kallsyms.
 * Inline additions are not atomic between vCPUs: a lost update is rare
 * and costs one block's count (well under 0.1 % at -smp 2).
 *
 * usage: qemu-system-x86_64 -plugin rblk-insn.so,out=FILE ...
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* The lowest x86-64 kernel address: all above is the kernel's. */
#define KERNEL_START 0xffff800000000000ULL

struct counts {
	uint64_t insns;
	uint64_t execs;
};

/*
 * Not valgrind's `xchg %rbx,%rbx`: libraries that fio loads execute that
 * one (client requests).
 */
static const uint8_t mark_insn[] = {
	0x66, 0x0f, 0x1f, 0x84, 0x00, 0x52, 0x42, 0x4c, 0x4b
};

static GMutex lock;
static GHashTable *blocks;	/* kernel vaddr -> struct counts */
static GArray *addrs;		/* the keys, in first-seen order */
static struct counts user;
static FILE *out;
static uint64_t seq;

static void dump(const char *what)
{
	guint i;

	g_mutex_lock(&lock);
	fprintf(out, "%s %" PRIu64 "\n", what, ++seq);
	for (i = 0; i < addrs->len; i++) {
		uint64_t va = g_array_index(addrs, uint64_t, i);
		struct counts *c = g_hash_table_lookup(blocks, &va);

		if (!c->execs)
			continue;
		fprintf(out, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", va,
			c->insns, c->execs);
		c->insns = 0;
		c->execs = 0;
	}
	fprintf(out, "user %" PRIu64 " %" PRIu64 "\nend %" PRIu64 "\n",
		user.insns, user.execs, seq);
	user.insns = 0;
	user.execs = 0;
	fflush(out);
	g_mutex_unlock(&lock);
}

static void mark(unsigned int vcpu_index, void *udata)
{
	dump("mark");
}

static struct counts *kernel_block(uint64_t va)
{
	struct counts *c;
	uint64_t *key;

	g_mutex_lock(&lock);
	c = g_hash_table_lookup(blocks, &va);
	if (!c) {
		key = g_new(uint64_t, 1);
		*key = va;
		c = g_new0(struct counts, 1);
		g_hash_table_insert(blocks, key, c);
		g_array_append_val(addrs, va);
	}
	g_mutex_unlock(&lock);
	return c;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct counts *c;

	if (va >= KERNEL_START) {
		c = kernel_block(va);
	} else {
		c = &user;
		for (i = 0; i < n; i++) {
			struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

			if (qemu_plugin_insn_size(insn) == sizeof(mark_insn) &&
			    !memcmp(qemu_plugin_insn_data(insn), mark_insn,
				    sizeof(mark_insn)))
				qemu_plugin_register_vcpu_insn_exec_cb(insn, mark,
						QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &c->insns, n);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &c->execs, 1);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	dump("exit");
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else {
			fprintf(stderr, "rblk-insn: unknown argument %s (out=FILE)\n",
				argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "rblk-insn: no out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "rblk-insn: %s: %s\n", path, strerror(errno));
		return -1;
	}
	blocks = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
				       g_free);
	addrs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
