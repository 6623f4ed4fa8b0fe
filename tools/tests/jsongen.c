// SPDX-License-Identifier: GPL-2.0
/*
 * Prints the output of nvmecfg for the test fixtures, so json_test.sh can
 * check it with a real JSON parser: jsongen {list|list-empty|show|stats|
 * discover|connect|event} [normal|json].
 */
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "output.h"

int main(int argc, char **argv)
{
	enum out_format fmt = OUT_JSON;
	struct dev_info d[2];
	struct dev_stats st;
	struct disc_entry e[2];
	struct dev_ref ref = { .index = 0, .name = "rblk0" };
	struct dev_event ev = {
		.event = RBLK_EVENT_REMOVED, .index = 0, .name = "rblk0",
		.state = RBLK_STATE_DELETING,
	};
	const char *what;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: jsongen WHAT [normal|json]\n");
		return 2;
	}
	what = argv[1];
	if (argc == 3 && !strcmp(argv[2], "normal"))
		fmt = OUT_NORMAL;

	fix_devs(d);
	fix_stats(&st);
	fix_disc(e);
	if (!strcmp(what, "list"))
		print_list(stdout, fmt, d, 2);
	else if (!strcmp(what, "list-empty"))
		print_list(stdout, fmt, d, 0);
	else if (!strcmp(what, "show"))
		print_show(stdout, fmt, &d[1]);
	else if (!strcmp(what, "stats"))
		print_stats(stdout, fmt, &st);
	else if (!strcmp(what, "discover"))
		print_discover(stdout, fmt, e, 2, 2);
	else if (!strcmp(what, "connect"))
		print_connect(stdout, fmt, &ref);
	else if (!strcmp(what, "event"))
		print_event(stdout, fmt, &ev);
	else
		return 2;
	return 0;
}
