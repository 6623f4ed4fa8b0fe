// SPDX-License-Identifier: GPL-2.0
/*
 * Prints the output of nvmecfg for the test fixtures, so json_test.sh can
 * check it with a real JSON parser: jsongen {list|list-empty|
 * list-mpath|list-verbose|list-verbose-mpath|list-verbose-empty|
 * list-iopolicy|list-dhchap|show|show-iopolicy|show-dhchap|stats|stats-ctrl|discover|connect|event|
 * event-ns|event-iopolicy|host|host-kernel|host-dmi|subsys|subsys-dev|
 * subsys-verbose|topology} [normal|json].
 */
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "output.h"

int main(int argc, char **argv)
{
	enum out_format fmt = OUT_JSON;
	struct ctrl_info c[2];
	struct ns_info ns[3];
	struct stats_info st;
	struct disc_entry e[2];
	struct disc_log log;
	struct host_info h;
	struct ctrl_event ev = {
		.event = RBLK_EVENT_REMOVED, .ctrl_index = 0,
		.ctrl_name = "rblk-ctrl0", .state = RBLK_STATE_DELETING,
	};
	struct ctrl_event ns_ev;
	struct ctrl_event io_ev = {
		.event = RBLK_EVENT_IOPOLICY_CHANGED, .has_subsys = true,
		.subsys = "rblk-subsys0", .subsysnqn = FIX_NQN,
		.has_iopolicy = true, .iopolicy = RBLK_IOPOLICY_QUEUE_DEPTH,
	};
	struct subsys_filter flt = { 0 };
	struct subsys_info s[2];
	struct path_info p[3], hp[2];
	struct head_info head;
	struct subsys_list subsys;
	const char *what;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: jsongen WHAT [normal|json]\n");
		return 2;
	}
	what = argv[1];
	if (argc == 3 && !strcmp(argv[2], "normal"))
		fmt = OUT_NORMAL;

	fix_ctrls(c, ns);
	fix_disc(e, &log);
	fix_host(&h);
	fix_event(&ns_ev);
	fix_subsys(s, p, &head, hp, &subsys);
	fix_stats(&st, strcmp(what, "stats-ctrl"));
	if (!strcmp(what, "list"))
		print_list(stdout, fmt, c, 2);
	else if (!strcmp(what, "list-empty"))
		print_list(stdout, fmt, c, 0);
	else if (!strcmp(what, "list-verbose"))
		/* No sysfs: one subsystem by NQN, no subsystem name. */
		print_list_verbose(stdout, fmt, c, 2, NULL);
	else if (!strcmp(what, "list-verbose-mpath") ||
		 !strcmp(what, "list-mpath")) {
		/*
		 * Multipath: rblk-ctrl2 a second path to rblk-subsys0, with
		 * the same devices rblk0 and rblk1.
		 */
		c[0].has_iopolicy = c[1].has_iopolicy = true;
		c[0].iopolicy = c[1].iopolicy = RBLK_IOPOLICY_ROUND_ROBIN;
		strcpy(c[1].name, "rblk-ctrl2");
		strcpy(c[1].model, c[0].model);
		strcpy(c[1].traddr, "10.99.0.2");
		strcpy(c[1].host_traddr, "10.99.0.100");
		c[1].nsid = 0;
		c[1].ns = c[0].ns;
		c[1].nr_ns = c[0].nr_ns;
		if (!strcmp(what, "list-mpath"))
			print_list(stdout, fmt, c, 2);
		else
			print_list_verbose(stdout, fmt, c, 2, &subsys);
	} else if (!strcmp(what, "list-verbose-empty"))
		print_list_verbose(stdout, fmt, c, 0, &subsys);
	else if (!strcmp(what, "show"))
		print_show(stdout, fmt, &c[1]);
	else if (!strcmp(what, "list-iopolicy") ||
		 !strcmp(what, "show-iopolicy")) {
		/* Multipath: the first one's subsystem has a policy. */
		c[0].has_iopolicy = true;
		c[0].iopolicy = RBLK_IOPOLICY_ROUND_ROBIN;
		if (!strcmp(what, "list-iopolicy"))
			print_list(stdout, fmt, c, 2);
		else
			print_show(stdout, fmt, &c[0]);
	} else if (!strcmp(what, "list-dhchap") ||
		   !strcmp(what, "show-dhchap")) {
		/* Authenticated both ways; the second holds no key. */
		c[0].has_dhchap_flags = true;
		c[0].dhchap_flags = RBLK_DHCHAP_F_HOST_KEY |
				    RBLK_DHCHAP_F_CTRL_KEY |
				    RBLK_DHCHAP_F_BIDIRECTIONAL;
		c[0].has_dhchap_hash = true;
		c[0].dhchap_hash = 2;
		c[0].dhchap_dhgroup = 1;
		if (!strcmp(what, "list-dhchap"))
			print_list(stdout, fmt, c, 2);
		else
			print_show(stdout, fmt, &c[0]);
	} else if (!strcmp(what, "stats") || !strcmp(what, "stats-ctrl"))
		print_stats(stdout, fmt, &st);
	else if (!strcmp(what, "subsys"))
		print_subsys(stdout, fmt, &subsys, NULL);
	else if (!strcmp(what, "subsys-verbose")) {
		flt.verbose = true;
		print_subsys(stdout, fmt, &subsys, &flt);
	} else if (!strcmp(what, "subsys-dev")) {
		flt.subsys = &s[0];
		flt.head = &head;
		print_subsys(stdout, fmt, &subsys, &flt);
	} else if (!strcmp(what, "topology")) {
		/* rblk-subsys1 without multipath: rblk-ctrl1's namespaces. */
		strcpy(c[0].name, "rblk-ctrl1");
		flt.ctrls = c;
		flt.nr_ctrls = 2;
		print_topology(stdout, fmt, &subsys, &flt);
	}
	else if (!strcmp(what, "discover"))
		print_discover(stdout, fmt, &log);
	else if (!strcmp(what, "connect"))
		print_connect(stdout, fmt, &c[0]);
	else if (!strcmp(what, "event"))
		print_event(stdout, fmt, &ev);
	else if (!strcmp(what, "event-iopolicy"))
		print_event(stdout, fmt, &io_ev);
	else if (!strcmp(what, "event-ns"))
		print_event(stdout, fmt, &ns_ev);
	else if (!strcmp(what, "host"))
		print_host(stdout, fmt, &h);
	else if (!strcmp(what, "host-kernel")) {
		/* Nothing given, no files, no module. */
		h.nqn_src = h.id_src = ID_KERNEL;
		h.module_loaded = false;
		h.module_hostnqn[0] = h.module_hostid[0] = '\0';
		print_host(stdout, fmt, &h);
	} else if (!strcmp(what, "host-dmi")) {
		/* No /etc/nvme/hostnqn: derived from the DMI UUID. */
		h.nqn_src = ID_DMI;
		h.id_src = ID_HOSTNQN;
		strcpy(h.machine.path, "/sys/class/dmi/id/product_uuid");
		print_host(stdout, fmt, &h);
	}
	else
		return 2;
	return 0;
}
