# rblk: NVMe-over-Fabrics RDMA host (/dev/rblkN) -- build and test entry points.
#
#   make check            build everything, boot the QEMU guest, run all selftests
#   make check T=name     run only the named selftest(s) (T="a b" or TESTS="a b")
#   make demo             boot the guest and show rblk end to end
#   make check-debug      the selftests on a debug kernel built from source
#                         (KASAN, lockdep, kmemleak, fault injection)
#
# Every real test runs in a QEMU (TCG) guest booting Debian's kernel of the
# pinned ABI below; the host kernel never loads our module.

# The one pin: headers, guest kernel image and modules must all match.
# Debian bumps the ABI number; change it here only.
KABI := 6.1.0-57
KVER := $(KABI)-amd64
KDIR := /usr/src/linux-headers-$(KVER)
BUILD := build/

T ?=
TESTS ?= $(T)
# Whole-boot limit for one guest run, seconds.
VM_TIMEOUT ?= 1200

VM_RUN = KVER=$(KVER) BUILD=$(BUILD) scripts/vm-run.sh --timeout $(VM_TIMEOUT)

.PHONY: all setup modules modules_clean tools initramfs check demo bench lint clean \
	debug-kernel debug-modules debug-initramfs check-debug

all: modules tools

setup:
	@scripts/setup.sh $(KVER) $(BUILD)

# Say what is missing on a machine without setup, rather than a kbuild error.
HAVE_KDIR = @test -d $(KDIR) || { echo "no $(KDIR): run 'make setup'" >&2; exit 1; }

modules:
	$(HAVE_KDIR)
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

modules_clean:
	$(HAVE_KDIR)
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

tools:
	$(MAKE) -C tools

initramfs:
	@scripts/mkinitramfs.sh $(KVER) $(BUILD)

# Everything the guest boots with, in order: each step needs the one before
# (the image needs setup's kernel and the modules/tools artefacts), even
# under make -j.
define build_guest
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory modules
	@$(MAKE) --no-print-directory tools
	@$(MAKE) --no-print-directory initramfs
endef

# Host unit tests of the tools, then the guest selftests; the last line is
# the total over both.
check:
	$(build_guest)
	@KVER=$(KVER) BUILD=$(BUILD) VM_TIMEOUT=$(VM_TIMEOUT) scripts/check.sh "$(TESTS)"

demo:
	$(build_guest)
	@$(VM_RUN) --mode demo

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
# The tests that disable the nvmet port run last: a port disable after a
# connect sets off a lockdep report inside the target (nvmet), and lockdep
# is off for the rest of the boot after any report; until then it watches
# every other test (Documentation/testing.rst).
DEBUG_ALL_TESTS = $(notdir $(basename $(wildcard selftests/rblk/*.sh)))
DEBUG_PORT_TESTS = $(notdir $(basename $(shell grep -lE 'nvmet_unlink|nvmet_reenable_port' selftests/rblk/*.sh)))
DEBUG_TESTS = kmemleak_clear \
	$(or $(TESTS),$(filter-out $(DEBUG_PORT_TESTS),$(DEBUG_ALL_TESTS)) $(DEBUG_PORT_TESTS)) \
	kmemleak_scan lockdep_armed

debug-kernel:
	@scripts/debug-kernel.sh $(BUILD)

debug-modules:
	@test -f $(DEBUG_KTREE)/Module.symvers || { echo "no debug kernel: run 'make debug-kernel'" >&2; exit 1; }
	@mkdir -p $(DEBUG_MOD)
	@cp -a -u Kbuild kmod include $(DEBUG_MOD)/
	$(MAKE) -C $(DEBUG_KTREE) M=$(CURDIR)/$(DEBUG_MOD) W=1 modules

debug-initramfs:
	@RBLK_KROOT=$(DEBUG_KROOT) RBLK_KO=$(DEBUG_MOD)/rblk.ko scripts/mkinitramfs.sh $(DEBUG_KVER) $(DEBUG_BUILD)

# Fails on any failed test, kernel splat (BUG: KASAN, lockdep WARNING:, ...)
# or kmemleak report.  Logs: $(DEBUG_BUILD)console.log, $(DEBUG_BUILD)ktap.log.
check-debug:
	@$(MAKE) --no-print-directory setup
	@$(MAKE) --no-print-directory tools
	@$(MAKE) --no-print-directory debug-kernel
	@$(MAKE) --no-print-directory debug-modules
	@$(MAKE) --no-print-directory debug-initramfs
	@KVER=$(DEBUG_KVER) BUILD=$(DEBUG_BUILD) \
		RBLK_VM_KERNEL=$(DEBUG_KROOT)/boot/vmlinuz-$(DEBUG_KVER) RBLK_VM_MEM=3072 \
		RBLK_TEST_TIMEOUT=$(DEBUG_TEST_TIMEOUT) \
		scripts/vm-run.sh --timeout $(DEBUG_VM_TIMEOUT) --mode check --tests "$(DEBUG_TESTS)"

# Style and static checks: checkpatch (from Debian's linux-source), sparse
# and a W=1 build, all of which must be clean.
KSRC_FILES = kmod/*.c kmod/*.h include/uapi/linux/rblk.h
lint:
	@scripts/get-checkpatch.sh $(BUILD)
	$(BUILD)checkpatch/scripts/checkpatch.pl --no-tree -f --terse $(KSRC_FILES)
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules 2>&1 | tee $(BUILD)lint.log
	@! grep -E "warning:|error:" $(BUILD)lint.log

# rblk against the in-kernel nvme-rdma host on the same target, one boot.
# Knobs (Documentation/benchmark.rst): RBLK_BENCH_ROUNDS (rblk,nvme,nvme,rblk
# rounds per job), RBLK_BENCH_RUNTIME (seconds per fio run), RBLK_BENCH_JOBS
# (only these jobs), RBLK_BENCH_PERF=1 (profile the table jobs).  They reach
# selftests/bench.sh as NAME=VALUE words on the kernel command line, which the
# kernel hands to /init as environment variables (no dot in the name, no
# space in the value: the job list goes comma separated).
BENCH_OUT ?= $(BUILD)bench
RBLK_BENCH_ROUNDS ?= 2
RBLK_BENCH_RUNTIME ?= 4
RBLK_BENCH_JOBS ?=
RBLK_BENCH_PERF ?= 0
# About 44 fio runs per round with every job; TCG on a busy machine is slow.
BENCH_VM_TIMEOUT ?= $(shell echo $$((1200 + 100 * $(RBLK_BENCH_ROUNDS) * ($(RBLK_BENCH_RUNTIME) + 4))))
bench_comma := ,
bench_space := $(subst ,, )
BENCH_APPEND = RBLK_BENCH_ROUNDS=$(RBLK_BENCH_ROUNDS) RBLK_BENCH_RUNTIME=$(RBLK_BENCH_RUNTIME) \
	RBLK_BENCH_PERF=$(RBLK_BENCH_PERF) \
	$(if $(strip $(RBLK_BENCH_JOBS)),RBLK_BENCH_JOBS=$(subst $(bench_space),$(bench_comma),$(strip $(RBLK_BENCH_JOBS))))
# The image carries perf only for a profiling run.
bench: export RBLK_GUEST_PERF = $(RBLK_BENCH_PERF)
bench:
	$(build_guest)
	@KVER=$(KVER) BUILD=$(BUILD) RBLK_VM_APPEND="$(strip $(RBLK_VM_APPEND) $(BENCH_APPEND))" \
		scripts/vm-run.sh --timeout $(BENCH_VM_TIMEOUT) --mode bench
	@scripts/bench-report.py $(BUILD)ktap.log $(BENCH_OUT)

clean: modules_clean
	rm -rf $(BUILD)initramfs $(BUILD)initramfs.cpio.gz $(BUILD)console.log $(BUILD)ktap.log \
		$(DEBUG_BUILD) $(DEBUG_MOD)
