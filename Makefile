# rblk: NVMe-over-Fabrics RDMA host (/dev/rblkN) -- build and test entry points.
#
#   make check            build everything, run the host tests, then the
#                         selftests in a QEMU guest of each supported kernel
#                         (all of them; the core tier on 7.3)
#   make check KABI=...   one kernel only
#   make check T=name     run only the named selftest(s) (T="a b" or TESTS="a b")
#   make demo             boot the guest and show rblk end to end
#   make install          rblk.ko for the running kernel, nvmecfg, man page,
#                         udev rules, systemd unit, bash completion (DESTDIR,
#                         PREFIX; KVER for another kernel); make uninstall
#                         removes them
#   make install-tools    the same without the module (with DKMS)
#   make install-dkms     the sources for DKMS under /usr/src/rblk-VERSION
#   make host-check       the host tests of install, uninstall and DKMS,
#                         and of the harness's kernel log filter
#   make check-debug      the selftests on a debug kernel built from source
#                         (KASAN, lockdep, kmemleak, fault injection)
#   make check-all        make check with the full suite on every kernel
#   make canary           build and lint for Debian unstable's newest kernel
#                         (CANARY_KABIS below), in a chroot; never booted
#   make modules KABI=... against another supported kernel (KABIS below);
#                         setup, lint, modules, check, demo, bench take it
#                         (Documentation/testing.rst, "Kernels")
#
# Every real test runs in a QEMU (TCG) guest booting Debian's kernel of a
# pinned ABI below; the host kernel never loads our module.

# The supported kernels, by Debian ABI (README.md, "Supported kernels"):
# Debian 12's 6.1, Debian's 6.12 built for Debian 12 (gcc-12; from
# bookworm-security, earlier ABIs from bookworm-backports), and the newest
# kernel of trixie-backports (Debian 13's; built in a trixie chroot, below).
# Headers, guest kernel image and modules of one ABI must all match.
# Debian bumps the ABI numbers; change them here only.  KABI, the default,
# is the first.
KABIS := 6.1.0-57 6.12.118+deb12 7.3.4+deb13
# What make check boots without KABI: every supported kernel, side by
# side (scripts/check.sh); those of CHECK_CORE_KABIS run the core tier,
# CORE_TESTS, the others the full suite (make check-all: the full suite
# on every kernel).
DEFAULT_CHECK_KABIS := 6.1.0-57 6.12.118+deb12 7.3.4+deb13
CHECK_CORE_KABIS := 7.3.4+deb13
# Build-only canary (make canary, and make check): Debian unstable's newest
# kernel of the day, built W=1 and sparse clean, never booted; this names
# the one it was when last looked at.
CANARY_KABIS := 7.2.13+deb14
KABI := 6.1.0-57
ifeq ($(filter $(KABI),$(KABIS) $(CANARY_KABIS)),)
$(error KABI=$(KABI) is not a supported kernel; KABIS: $(KABIS); canary: $(CANARY_KABIS))
endif
KVER := $(KABI)-amd64
DEFAULT_KVER := $(firstword $(KABIS))-amd64
BUILD := build/
# The tests every booted kernel passes at least (issue 45): connect,
# verified I/O, reconnect under I/O, multipath failover, authentication,
# rmmod under I/O; and the soak's 5-minute tier (selftests/meta/soak_short.sh,
# seed 1), which the core tier's guest has the time for beside the full
# suites.  TESTS=core names them.
CORE_TESTS := module_load fio_verify recovery_port_flap mpath_failover \
	auth_bidir auth_unidir rmmod_under_fio soak_short
# make check: the default kernels, one guest each, unless KABI (or KVER)
# names one.
CHECK_KABIS := $(if $(filter command line,$(origin KABI) $(origin KVER)),$(KVER:-amd64=),$(DEFAULT_CHECK_KABIS))
# A kernel built for a later Debian than the host's needs that suite's gcc:
# its headers are installed in a chroot of the suite (scripts/kchroot.sh,
# under build/chroot/), where kbuild runs.
kabi_suite = $(if $(findstring +deb13,$(1)),trixie,$(if $(or $(findstring +deb14,$(1)),$(findstring +deb15,$(1))),sid))
# The headers of kernel $(1): the running kernel's build link or the
# installed package's, else the copy that setup unpacks under build/
# (6.12's headers package depends on its kernel image, which the host does
# not install), or the chroot's.  Looked up when used: setup may make them.
kdir_of = $(firstword $(wildcard /lib/modules/$(1)/build /usr/src/linux-headers-$(1)) \
	$(if $(call kabi_suite,$(1)),$(abspath $(BUILD))/chroot/$(call kabi_suite,$(1))/usr/src/linux-headers-$(1), \
	$(abspath $(BUILD))/headers-$(1)/usr/src/linux-headers-$(1)))
KDIR = $(call kdir_of,$(KVER))
# kbuild for KVER: in the chroot when the headers are the chroot's.
CHROOT = $(if $(filter $(abspath $(BUILD))/chroot/%,$(KDIR)),$(call kabi_suite,$(KVER)))
KBUILD_MAKE = $(if $(CHROOT),scripts/kchroot.sh run $(CHROOT) $(BUILD) make -C /usr/src/linux-headers-$(KVER),$(MAKE) -C $(KDIR))
# Where rblk.ko is built: in the tree for the default kernel, for any
# other in a copy of the module's sources, so that one kernel's objects
# never replace another's (make check builds both).
MOD_DIR = $(if $(filter $(DEFAULT_KVER),$(KVER)),$(CURDIR),$(abspath $(BUILD))/mod-$(KVER))
MOD_KO = $(MOD_DIR)/rblk.ko
# The guest's initramfs and logs: build/ for the default kernel, a
# directory of its own for any other.
GUEST_BUILD = $(if $(filter $(DEFAULT_KVER),$(KVER)),$(BUILD),$(BUILD)guest-$(KVER)/)

T ?=
TESTS ?= $(T)
# TESTS=core: the core tier, CORE_TESTS (with any other names given).
override TESTS := $(if $(filter core,$(TESTS)),$(CORE_TESTS) $(filter-out core,$(TESTS)),$(TESTS))
# Whole-boot limit for one guest run, seconds: the guest takes about 8
# minutes on an idle two-core machine, and CI machines were seen 2.5 times
# slower.
VM_TIMEOUT ?= 2400

VM_RUN = KVER=$(KVER) BUILD=$(GUEST_BUILD) RBLK_VM_KERNEL=$(BUILD)kernel/boot/vmlinuz-$(KVER) \
	scripts/vm-run.sh --timeout $(VM_TIMEOUT)

.PHONY: all setup modules modules_clean tools initramfs check check-all demo soak soak-debug bench bench-insn insn-annotate lint clean \
	debug-kernel debug-modules debug-initramfs check-debug check-debug-siw \
	install install-module install-module-kver install-tools uninstall uninstall-kver \
	install-dkms uninstall-dkms host-check guest-check guest-build guest-run guest-dir canary

all: modules tools $(BUILD)nvmecfg.bash

setup:
	@scripts/setup.sh $(KVER) $(BUILD) $(call kabi_suite,$(KVER)) \
		$(if $(filter $(KVER:-amd64=),$(CANARY_KABIS)),build-only)

# Say what is missing, rather than a kbuild error: the kernel's headers
# package; for building and testing a supported kernel (not for make
# install: HEADERS_FOR_INSTALL), also make setup, which unpacks its headers
# under build/ (and installs QEMU and the test tools).
HAVE_KDIR = @test -d $(KDIR) || { \
	if [ "$(if $(HEADERS_FOR_INSTALL),,$(filter $(KVER),$(addsuffix -amd64,$(KABIS))))" ]; then \
		echo "no headers for $(KVER): install linux-headers-$(KVER), or run 'make setup KABI=$(KVER:-amd64=)' for the test guest's" >&2; \
	else \
		echo "no headers for $(KVER): install linux-headers-$(KVER) (apt-get install linux-headers-$(KVER))" >&2; \
	fi; exit 1; }
# A copy of the module's sources (never the tree's objects) for a build
# outside the tree; cp -a keeps their times, so kbuild rebuilds what
# changed.
sync_sources = mkdir -p $(1)/kmod $(1)/include && \
	cp -a Kbuild VERSION $(1)/ && cp -a kmod/*.[ch] $(1)/kmod/ && cp -a include/. $(1)/include/
SYNC_MOD = @[ "$(MOD_DIR)" = "$(CURDIR)" ] || { $(call sync_sources,$(MOD_DIR)); }

modules:
	$(HAVE_KDIR)
	$(SYNC_MOD)
	$(KBUILD_MAKE) M=$(MOD_DIR) W=1 modules

modules_clean:
	$(HAVE_KDIR)
	$(KBUILD_MAKE) M=$(MOD_DIR) clean

tools:
	$(MAKE) -C tools

initramfs:
	@RBLK_KROOT=$(BUILD)kernel RBLK_KO=$(MOD_KO) scripts/mkinitramfs.sh $(KVER) $(GUEST_BUILD)

# Bash completion, from what the built nvmecfg says its commands and
# options are.
# tools/nvmecfg is made by tools/Makefile, never by make's built-in rule.
tools/nvmecfg: tools
	@:
$(BUILD)nvmecfg.bash: tools/nvmecfg scripts/gen-completion.sh
	@mkdir -p $(BUILD)
	scripts/gen-completion.sh tools/nvmecfg > $@.tmp
	@mv $@.tmp $@

# --- install ---
# PREFIX holds the tool, its man page and completion.  udev and systemd
# read their directories only, whatever PREFIX is.  The module goes to
# updates/, which depmod ranks above the kernel's own modules; depmod runs
# unless DESTDIR says this is a staging tree.
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
UDEVDIR ?= /lib/udev
SYSTEMDUNITDIR ?= /lib/systemd/system
# make install and uninstall: for the running kernel unless KVER or KABI
# names another (a recursive make with that KVER does the work).
INSTALL_KVER := $(if $(filter command line,$(origin KABI) $(origin KVER)),$(KVER),$(shell uname -r))
MODDIR ?= /lib/modules/$(KVER)/updates
# rblk's version, one for the module (Kbuild), nvmecfg (tools/Makefile) and
# DKMS (dkms.conf's PACKAGE_VERSION, filled in by install-dkms).
RBLK_VERSION := $(shell cat VERSION)
DKMSSRCDIR ?= /usr/src/rblk-$(RBLK_VERSION)
INSTALLED = $(MODDIR)/rblk.ko $(SBINDIR)/nvmecfg $(MANDIR)/man8/nvmecfg.8 \
	$(UDEVDIR)/rules.d/60-rblk.rules $(SYSTEMDUNITDIR)/rblk-autoconnect.service \
	$(SYSTEMDUNITDIR)/rblk-monitor.service $(BASHCOMPDIR)/nvmecfg

install: install-module install-tools

install-module:
	@$(MAKE) --no-print-directory install-module-kver KVER=$(INSTALL_KVER)

# The module is built for KVER: refuse to put it under another kernel's tree.
# Missing headers: the package's name only (HAVE_KDIR).
install-module-kver: HEADERS_FOR_INSTALL := 1
install-module-kver: modules
	@v=$$(modinfo -F vermagic $(MOD_KO) | cut -d' ' -f1); [ "$$v" = "$(KVER)" ] || \
		{ echo "$(MOD_KO) is built for $$v, not KVER=$(KVER)" >&2; exit 1; }
	install -D -m 0644 $(MOD_KO) $(DESTDIR)$(MODDIR)/rblk.ko
	$(if $(DESTDIR),,depmod -a $(KVER))

# Everything but the module, e.g. with DKMS building that.
install-tools: tools $(BUILD)nvmecfg.bash
	install -D -m 0755 tools/nvmecfg $(DESTDIR)$(SBINDIR)/nvmecfg
	install -D -m 0644 Documentation/nvmecfg.8 $(DESTDIR)$(MANDIR)/man8/nvmecfg.8
	install -D -m 0644 udev/60-rblk.rules $(DESTDIR)$(UDEVDIR)/rules.d/60-rblk.rules
	@mkdir -p $(BUILD)
	sed 's|@SBINDIR@|$(SBINDIR)|g' systemd/rblk-autoconnect.service.in \
		> $(BUILD)rblk-autoconnect.service
	install -D -m 0644 $(BUILD)rblk-autoconnect.service \
		$(DESTDIR)$(SYSTEMDUNITDIR)/rblk-autoconnect.service
	sed 's|@SBINDIR@|$(SBINDIR)|g' systemd/rblk-monitor.service.in \
		> $(BUILD)rblk-monitor.service
	install -D -m 0644 $(BUILD)rblk-monitor.service \
		$(DESTDIR)$(SYSTEMDUNITDIR)/rblk-monitor.service
	install -D -m 0644 $(BUILD)nvmecfg.bash $(DESTDIR)$(BASHCOMPDIR)/nvmecfg

uninstall:
	@$(MAKE) --no-print-directory uninstall-kver KVER=$(INSTALL_KVER)

uninstall-kver:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir --ignore-fail-on-non-empty $(DESTDIR)$(MODDIR)
	$(if $(DESTDIR),,depmod -a $(KVER))

# What `dkms add` wants: the module's sources and dkms.conf in one tree.
install-dkms:
	@mkdir -p $(DESTDIR)$(DKMSSRCDIR)/kmod
	install -m 0644 Kbuild VERSION $(DESTDIR)$(DKMSSRCDIR)/
	@mkdir -p $(BUILD)
	sed 's|@VERSION@|$(RBLK_VERSION)|g' dkms.conf.in > $(BUILD)dkms.conf
	install -m 0644 $(BUILD)dkms.conf $(DESTDIR)$(DKMSSRCDIR)/dkms.conf
	install -m 0644 kmod/*.[ch] $(DESTDIR)$(DKMSSRCDIR)/kmod/
	install -D -m 0644 include/uapi/linux/rblk.h \
		$(DESTDIR)$(DKMSSRCDIR)/include/uapi/linux/rblk.h

uninstall-dkms:
	rm -rf $(DESTDIR)$(DKMSSRCDIR)

# Host tests of install/uninstall (into a temporary DESTDIR) and of DKMS
# builds against the headers of every kernel of CHECK_KABIS (make setup
# KABI=... gets them) in a private DKMS tree; "N passed, N failed" last.
# A kernel whose headers live in a chroot is tested there, with that
# suite's dkms and gcc, as on a machine of that Debian.
CHECK_CHROOT_KABIS = $(foreach k,$(CHECK_KABIS),$(if $(call kabi_suite,$(k)),$(k)))
CHECK_HOST_KABIS = $(filter-out $(CHECK_CHROOT_KABIS),$(CHECK_KABIS))
host-check: modules tools
	$(setup_check_kabis)
	@KVER=$(KVER) KDIR=$(KDIR) BUILD=$(BUILD) \
		DKMS_KVERS="$(addsuffix -amd64,$(CHECK_HOST_KABIS))" \
		DKMS_KDIRS="$(foreach k,$(CHECK_HOST_KABIS),$(call kdir_of,$(k)-amd64))" \
		DKMS_CHROOTS="$(foreach k,$(CHECK_CHROOT_KABIS),$(call kabi_suite,$(k)):$(k)-amd64)" \
		scripts/host-tests.sh

# Everything the guest boots with, in order: each step needs the one before
# (the image needs setup's kernel and the modules/tools artefacts), even
# under make -j.
define build_guest
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory modules
	@$(MAKE) --no-print-directory tools
	@$(MAKE) --no-print-directory initramfs
endef

# make setup for each kernel of CHECK_KABIS.
define setup_check_kabis
	@for k in $(CHECK_KABIS); do $(MAKE) --no-print-directory setup KABI=$$k || exit 1; done
endef

# Host unit tests of the tools, then the guest selftests on each kernel of
# CHECK_KABIS, one guest each; the last line is the total over all.
check:
	$(setup_check_kabis)
	@CHECK_KABIS="$(CHECK_KABIS)" CHECK_CORE_KABIS="$(CHECK_CORE_KABIS)" BUILD=$(BUILD) \
		scripts/check.sh "$(TESTS)"

# Every supported kernel booted, the full suite on each.
check-all:
	@$(MAKE) --no-print-directory check DEFAULT_CHECK_KABIS="$(KABIS)" CHECK_CORE_KABIS=""

# The build canary: each kernel of CANARY_KABIS (Debian testing's and
# unstable's newest), set up in its suite's chroot, then make lint: W=1,
# sparse and checkpatch clean.  Never booted: the next interface change
# shows the day Debian ships it.
# It builds against sid's newest kernel of the day, which CANARY_KABIS
# names when it was last looked at.
canary:
	@k=$$(scripts/kchroot.sh newest sid $(BUILD)) && [ -n "$$k" ] || \
		{ echo "canary: no kernel headers found in sid" >&2; exit 1; }; \
	[ "$$k" = "$(CANARY_KABIS)" ] || \
		echo "canary: sid's newest kernel is $$k, not $(CANARY_KABIS) (CANARY_KABIS): building against $$k"; \
	$(MAKE) --no-print-directory setup KABI=$$k CANARY_KABIS=$$k && \
	$(MAKE) --no-print-directory lint KABI=$$k CANARY_KABIS=$$k

# One kernel's guest run of make check (scripts/check.sh keeps its output
# in $(GUEST_BUILD)guest-tests.log).
guest-check:
	$(build_guest)
	@$(VM_RUN) --mode check --tests "$(TESTS)"
# The two halves of guest-check, for scripts/check.sh: images built one
# at a time, guests run side by side.
guest-build:
	$(build_guest)
guest-run:
	@$(VM_RUN) --mode check --tests "$(TESTS)"
guest-dir:
	@echo $(GUEST_BUILD)

demo:
	$(build_guest)
	@$(VM_RUN) --mode demo

# A seeded fault soak (selftests/soak.sh; Documentation/testing.rst,
# "Soak"): SOAK_MINUTES of faults under verifying I/O against rblk, then
# the same against nvme-rdma for reference (SOAK_REF=0: not); SEED replays
# a schedule.  The console and KTAP log are kept in $(BUILD)soak/.
SOAK_MINUTES ?= 60
SOAK_REF ?= 1
SEED ?=
soak:
	$(build_guest)
	@mkdir -p $(BUILD)soak
	@RBLK_TEST_TIMEOUT=$$(( $(SOAK_MINUTES) * 150 + 900 )) \
		RBLK_VM_APPEND="$(strip $(RBLK_VM_APPEND) RBLK_SOAK_MINUTES=$(SOAK_MINUTES) RBLK_SOAK_REF=$(SOAK_REF) $(if $(SEED),RBLK_SOAK_SEED=$(SEED)))" \
		$(VM_RUN) --timeout $$(( $(SOAK_MINUTES) * 150 + 1500 )) --mode soak; rc=$$?; \
		cp $(GUEST_BUILD)console.log $(GUEST_BUILD)ktap.log $(BUILD)soak/; exit $$rc

# --- the debug guest (issue #8) ---
# Debian's linux-source-6.1 built with scripts/debug-kernel.config (KASAN,
# lockdep, kmemleak, failslab/fail_make_request), rblk built against it in a
# copy of the sources (./rblk.ko stays the Debian-kernel build), its own
# initramfs and logs under $(DEBUG_BUILD).  The kernel build is cached.
DEBUG_BUILD := $(BUILD)debug/
DEBUG_KTREE := $(BUILD)debug-kernel/linux-source-6.1
DEBUG_KROOT := $(BUILD)debug-kernel/root
DEBUG_MOD := $(BUILD)debug-mod
DEBUG_KVER = $$(cat $(BUILD)debug-kernel/kver)
# KASAN + lockdep under TCG: several times slower than the normal guest.
DEBUG_VM_TIMEOUT ?= 5400
DEBUG_TEST_TIMEOUT ?= 1500
# Every selftest (or TESTS), between a kmemleak baseline and a final scan,
# then a check that lockdep is still armed.
# The tests that disable an nvmet port run last: a port disable after a
# connect sets off a lockdep report inside the target (nvmet), and lockdep
# is off for the rest of the boot after any report; until then it watches
# every other test (Documentation/testing.rst).  Such a test says so in a
# "# rblk-lockdep: port-disable" line; lockdep_armed fails the run if the
# report came during any other.
DEBUG_ALL_TESTS = $(notdir $(basename $(wildcard selftests/rblk/*.sh)))
DEBUG_PORT_TESTS = $(notdir $(basename $(shell grep -l '^\# rblk-lockdep: port-disable' selftests/rblk/*.sh)))
DEBUG_TESTS = kmemleak_clear \
	$(or $(TESTS),$(filter-out $(DEBUG_PORT_TESTS),$(DEBUG_ALL_TESTS)) $(DEBUG_PORT_TESTS)) \
	kmemleak_scan lockdep_armed

# The guest's RDMA fabric: rxe (Soft-RoCE) or siw (Soft-iWARP; only the
# debug kernel has it, Debian's kernels build no siw).
RDMA ?= rxe
export RBLK_RDMA := $(RDMA)
# Over iWARP: the data-path, reconnect and fault selftests, nvme-rdma beside.
SIW_TESTS = nvme_rdma_reference data_patterns fio_verify fs_ext4 io_limits \
	recovery_port_flap recovery_rxe_flap ctrl_loss_eio fast_io_fail \
	failfast_reconnect reconnect_queues timeout_retry_eio poll_queues \
	dm_mpath_failfast queue_growth_fail fault_inject

debug-kernel:
	@scripts/debug-kernel.sh $(BUILD)

debug-modules:
	@test -f $(DEBUG_KTREE)/Module.symvers || { echo "no debug kernel: run 'make debug-kernel'" >&2; exit 1; }
	@mkdir -p $(DEBUG_MOD)
	@$(call sync_sources,$(DEBUG_MOD))
	$(MAKE) -C $(DEBUG_KTREE) M=$(CURDIR)/$(DEBUG_MOD) W=1 modules

debug-initramfs:
	@RBLK_KROOT=$(DEBUG_KROOT) RBLK_KO=$(DEBUG_MOD)/rblk.ko scripts/mkinitramfs.sh $(DEBUG_KVER) $(DEBUG_BUILD)

# Fails on any failed test, kernel splat (BUG: KASAN, lockdep WARNING:, ...)
# or kmemleak report.  Logs: $(DEBUG_BUILD)console.log, $(DEBUG_BUILD)ktap.log.
# The debug guest's image (its kernel, rblk built against it, the
# initramfs) and how it boots: check-debug's and soak-debug's.
define build_debug_guest
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory tools
	@$(MAKE) --no-print-directory debug-kernel
	@$(MAKE) --no-print-directory debug-modules
	@$(MAKE) --no-print-directory debug-initramfs
endef
DEBUG_VM_RUN = KVER=$(DEBUG_KVER) BUILD=$(DEBUG_BUILD) \
	RBLK_VM_KERNEL=$(DEBUG_KROOT)/boot/vmlinuz-$(DEBUG_KVER) RBLK_VM_MEM=3072

check-debug:
	$(build_debug_guest)
	@$(DEBUG_VM_RUN) RBLK_TEST_TIMEOUT=$(DEBUG_TEST_TIMEOUT) \
		scripts/vm-run.sh --timeout $(DEBUG_VM_TIMEOUT) --mode check --tests "$(DEBUG_TESTS)"

# The soak (selftests/soak.sh) on the debug guest, between kmemleak_clear
# and kmemleak_scan: KASAN, lockdep and kmemleak watch it.  SOAK_MINUTES,
# SEED and SOAK_REF as for make soak (the debug kernel's nvme_core has no
# native multipath: no reference).  Logs as check-debug's.
soak-debug:
	$(build_debug_guest)
	@$(DEBUG_VM_RUN) RBLK_TEST_TIMEOUT=$$(( $(SOAK_MINUTES) * 300 + 1800 )) \
		RBLK_VM_APPEND="$(strip $(RBLK_VM_APPEND) RBLK_SOAK_MINUTES=$(SOAK_MINUTES) RBLK_SOAK_REF=$(SOAK_REF) RBLK_SOAK_SEED=$(or $(SEED),random))" \
		scripts/vm-run.sh --timeout $$(( $(SOAK_MINUTES) * 300 + 2400 )) --mode check \
		--tests "kmemleak_clear soak_short kmemleak_scan"

# The same debug guest over Soft-iWARP, SIW_TESTS only.
check-debug-siw:
	@$(MAKE) --no-print-directory check-debug RDMA=siw TESTS="$(SIW_TESTS)"

# Style and static checks: checkpatch (from Debian's linux-source), sparse
# and a W=1 build against KABI's headers, all of which must be clean.  Only
# the compat header may test LINUX_VERSION_CODE.
KSRC_FILES = $(filter-out kmod/compat.h,$(wildcard kmod/*.c kmod/*.h)) include/uapi/linux/rblk.h
lint:
	$(HAVE_KDIR)
	@scripts/get-checkpatch.sh $(BUILD)
	$(BUILD)checkpatch/scripts/checkpatch.pl --no-tree -f --terse $(KSRC_FILES)
	$(BUILD)checkpatch/scripts/checkpatch.pl --no-tree -f --terse \
		--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON kmod/compat.h
	$(SYNC_MOD)
	@{ $(KBUILD_MAKE) M=$(MOD_DIR) W=1 C=2 modules 2>&1; echo "lint: kbuild exit $$?"; } | \
		tee $(BUILD)lint.log
	@grep -qx "lint: kbuild exit 0" $(BUILD)lint.log || { echo "lint: the build failed" >&2; exit 1; }
	@! grep -E "warning:|error:|ERROR:" $(BUILD)lint.log
	@# kbuild skips a sparse that it finds missing or too old, only saying so.
	@! grep -E "C=2 specified, but .* not available or not up to date" $(BUILD)lint.log || \
		{ echo "lint: sparse was not run (see above): make setup KABI=$(KABI) brings one" >&2; exit 1; }
	@grep -q "^  CHECK " $(BUILD)lint.log || { echo "lint: sparse checked no file" >&2; exit 1; }

# rblk against the in-kernel nvme-rdma host on the same target, one boot.
# Knobs (Documentation/benchmark.rst): RBLK_BENCH_ROUNDS (rblk,nvme,nvme,rblk
# rounds per job), RBLK_BENCH_RUNTIME (seconds per fio run), RBLK_BENCH_JOBS
# (only these jobs), RBLK_BENCH_PERF=1 (profile the table jobs),
# RBLK_BENCH_PERF_ROUNDS (profiled rblk,nvme,nvme,rblk rounds; default 1),
# RBLK_BENCH_PERF_RUNTIME (seconds per profiled run; default twice
# RBLK_BENCH_RUNTIME).  They reach
# selftests/bench.sh as NAME=VALUE words on the kernel command line, which the
# kernel hands to /init as environment variables (no dot in the name, no
# space in the value: the job list goes comma separated).
BENCH_OUT ?= $(GUEST_BUILD)bench
RBLK_BENCH_ROUNDS ?= 2
RBLK_BENCH_RUNTIME ?= 4
RBLK_BENCH_JOBS ?=
RBLK_BENCH_PERF ?= 0
RBLK_BENCH_PERF_RUNTIME ?=
RBLK_BENCH_PERF_ROUNDS ?=
# About 44 fio runs per round with every job; TCG on a busy machine is slow.
# Profiling adds 4 runs a round for each of the 10 profiled jobs, and the
# reports (about 20 s a run under TCG).
bench_perf_runtime = $(or $(strip $(RBLK_BENCH_PERF_RUNTIME)),$(shell echo $$((2 * $(RBLK_BENCH_RUNTIME)))))
bench_perf_rounds = $(or $(strip $(RBLK_BENCH_PERF_ROUNDS)),1)
BENCH_VM_TIMEOUT ?= $(shell echo $$((1200 + 100 * $(RBLK_BENCH_ROUNDS) * ($(RBLK_BENCH_RUNTIME) + 4) + \
	$(RBLK_BENCH_PERF) * 40 * $(bench_perf_rounds) * ($(bench_perf_runtime) + 20))))
bench_comma := ,
bench_space := $(subst ,, )
BENCH_APPEND = RBLK_BENCH_ROUNDS=$(RBLK_BENCH_ROUNDS) RBLK_BENCH_RUNTIME=$(RBLK_BENCH_RUNTIME) \
	RBLK_BENCH_PERF=$(RBLK_BENCH_PERF) \
	$(if $(strip $(RBLK_BENCH_PERF_RUNTIME)),RBLK_BENCH_PERF_RUNTIME=$(strip $(RBLK_BENCH_PERF_RUNTIME))) \
	$(if $(strip $(RBLK_BENCH_PERF_ROUNDS)),RBLK_BENCH_PERF_ROUNDS=$(strip $(RBLK_BENCH_PERF_ROUNDS))) \
	$(if $(strip $(RBLK_BENCH_JOBS)),RBLK_BENCH_JOBS=$(subst $(bench_space),$(bench_comma),$(strip $(RBLK_BENCH_JOBS))))
# The image carries perf only for a profiling run.
bench: export RBLK_GUEST_PERF = $(RBLK_BENCH_PERF)
RBLK_BENCH_INSN ?= 0
ifeq ($(RBLK_BENCH_INSN),1)
bench: bench-insn
else
bench:
	$(build_guest)
	@KVER=$(KVER) BUILD=$(GUEST_BUILD) RBLK_VM_KERNEL=$(BUILD)kernel/boot/vmlinuz-$(KVER) \
		RBLK_VM_APPEND="$(strip $(RBLK_VM_APPEND) $(BENCH_APPEND))" \
		scripts/vm-run.sh --timeout $(BENCH_VM_TIMEOUT) --mode bench
	@scripts/bench-report.py $(GUEST_BUILD)ktap.log $(BENCH_OUT)
endif

# Instructions per I/O (issue #32): the rblk-insn TCG plugin counts what
# the guest executes; selftests/bench_insn.sh runs the jobs on rblk and on
# nvme-rdma between marks; scripts/insn-report.py writes
# $(BENCH_OUT)/insn.md and insn.json.  Knobs: RBLK_INSN_IOS (I/Os of a 4k
# job's short run), RBLK_INSN_REPEAT (runs of each job), RBLK_BENCH_JOBS,
# RBLK_INSN_MODPARAMS (rblk.ko's parameters, e.g. multipath=Y).
# `make bench RBLK_BENCH_INSN=1` is the same.
INSN_DIR := $(BUILD)insn/
INSN_PLUGIN := $(INSN_DIR)rblk-insn.so
INSN_MARK := $(INSN_DIR)rblk-insn-mark
RBLK_INSN_IOS ?= 1000
RBLK_INSN_REPEAT ?= 1
RBLK_INSN_MODPARAMS ?=
INSN_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter
$(INSN_DIR)include/qemu-plugin.h:
	@scripts/insn-setup.sh $(BUILD)
$(INSN_PLUGIN): tools/insn/insn.c $(INSN_DIR)include/qemu-plugin.h
	gcc $(INSN_CFLAGS) -shared -fPIC -I$(INSN_DIR)include $$(pkg-config --cflags glib-2.0) \
		-o $@ $< $$(pkg-config --libs glib-2.0)
$(INSN_MARK): tools/insn/mark.c
	@mkdir -p $(INSN_DIR)
	gcc $(INSN_CFLAGS) -static -nostdlib -o $@ $<
# The whole run with IOS 1000 and REPEAT 2 took 175 s of guest time on a
# busy machine: 10 ms per I/O of a job, at least 10 times that.
INSN_VM_TIMEOUT ?= $(shell echo $$((900 + 11 * 8 * $(RBLK_INSN_REPEAT) * $(RBLK_INSN_IOS) / 100)))
bench-insn: export RBLK_INSN_MARK = $(abspath $(INSN_MARK))
bench-insn: $(INSN_PLUGIN) $(INSN_MARK)
	$(build_guest)
	@rm -f $(GUEST_BUILD)insn.dump
	@KVER=$(KVER) BUILD=$(GUEST_BUILD) RBLK_VM_KERNEL=$(BUILD)kernel/boot/vmlinuz-$(KVER) \
		RBLK_VM_PLUGIN=$(abspath $(INSN_PLUGIN)),out=$(abspath $(GUEST_BUILD))/insn.dump \
		RBLK_VM_APPEND="$(strip $(RBLK_VM_APPEND) RBLK_INSN_IOS=$(RBLK_INSN_IOS) RBLK_INSN_REPEAT=$(RBLK_INSN_REPEAT) \
			$(if $(strip $(RBLK_BENCH_JOBS)),RBLK_BENCH_JOBS=$(subst $(bench_space),$(bench_comma),$(strip $(RBLK_BENCH_JOBS)))) \
			$(if $(strip $(RBLK_INSN_MODPARAMS)),RBLK_INSN_MODPARAMS=$(subst $(bench_space),$(bench_comma),$(strip $(RBLK_INSN_MODPARAMS)))))" \
		scripts/vm-run.sh --timeout $(INSN_VM_TIMEOUT) --mode bench_insn
	@cp $(GUEST_BUILD)ktap.log $(GUEST_BUILD)insn.log
	@scripts/insn-report.py $(GUEST_BUILD)insn.log $(GUEST_BUILD)insn.dump $(BENCH_OUT)

# Where one job's rblk.ko instructions per I/O go, by source line, from
# the last bench-insn run of this kernel (its log kept as insn.log; the
# module as built now, so build nothing in between): make insn-annotate
# JOB=randwrite_4k_qd1 [FUNC="rblk_queue_rq ..."] [ASM=1].
insn-annotate:
	@scripts/insn-annotate.py $(GUEST_BUILD)insn.log $(GUEST_BUILD)insn.dump $(MOD_KO) \
		$(or $(JOB),randread_4k_qd1) $(foreach f,$(FUNC),--func $(f)) $(if $(filter 1,$(ASM)),--asm)

# What a controller with 1..256 namespaces and its I/O queues cost, rblk
# next to nvme-rdma, one boot (Documentation/benchmark.rst, "Scale").
# Knobs: RBLK_SCALE_COUNTS (namespace counts), RBLK_SCALE_ROUNDS
# (rblk,nvme,nvme,rblk rounds per count), RBLK_SCALE_QUEUES=0 (no queue
# runs); they reach selftests/bench_scale.sh on the kernel command line.
SCALE_OUT ?= $(GUEST_BUILD)bench
RBLK_SCALE_COUNTS ?= 1,16,64,256
RBLK_SCALE_ROUNDS ?= 1
RBLK_SCALE_QUEUES ?= 1
SCALE_VM_TIMEOUT ?= $(shell echo $$((1200 + 900 * $(RBLK_SCALE_ROUNDS))))
scale_comma := ,
scale_space := $(subst ,, )
SCALE_APPEND = RBLK_SCALE_COUNTS=$(subst $(scale_space),$(scale_comma),$(strip $(RBLK_SCALE_COUNTS))) \
	RBLK_SCALE_ROUNDS=$(RBLK_SCALE_ROUNDS) RBLK_SCALE_QUEUES=$(RBLK_SCALE_QUEUES)
.PHONY: bench-scale
bench-scale:
	$(build_guest)
	@KVER=$(KVER) BUILD=$(GUEST_BUILD) RBLK_VM_KERNEL=$(BUILD)kernel/boot/vmlinuz-$(KVER) \
		RBLK_VM_APPEND="$(strip $(RBLK_VM_APPEND) $(SCALE_APPEND))" \
		scripts/vm-run.sh --timeout $(SCALE_VM_TIMEOUT) --mode bench_scale
	@scripts/scale-report.py $(GUEST_BUILD)ktap.log $(SCALE_OUT)

clean: modules_clean
	rm -rf $(BUILD)initramfs $(BUILD)initramfs.cpio.gz $(BUILD)console.log $(BUILD)console.log.boot1 $(BUILD)ktap.log \
		$(BUILD)mod-* $(BUILD)guest-* \
		$(BUILD)nvmecfg.bash $(BUILD)dkms.conf $(BUILD)rblk-autoconnect.service $(BUILD)rblk-monitor.service \
		$(DEBUG_BUILD) $(DEBUG_MOD)
