# rblk: NVMe-over-Fabrics RDMA host (/dev/rblkN) -- build and test entry points.
#
#   make check            build everything, boot the QEMU guest, run all selftests
#   make check T=name     run only the named selftest(s) (T="a b" or TESTS="a b")
#   make demo             boot the guest and show rblk end to end
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

.PHONY: all setup modules modules_clean tools initramfs check demo bench lint clean

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

# Style and static checks: checkpatch (from Debian's linux-source), sparse
# and a W=1 build, all of which must be clean.
KSRC_FILES = kmod/*.c kmod/*.h include/uapi/linux/rblk.h
lint:
	@scripts/get-checkpatch.sh $(BUILD)
	$(BUILD)checkpatch/scripts/checkpatch.pl --no-tree -f --terse $(KSRC_FILES)
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules 2>&1 | tee $(BUILD)lint.log
	@! grep -E "warning:|error:" $(BUILD)lint.log

# rblk against the in-kernel nvme-rdma host on the same target, one boot.
BENCH_OUT ?= $(BUILD)bench
bench:
	$(build_guest)
	@KVER=$(KVER) BUILD=$(BUILD) scripts/vm-run.sh --timeout 2400 --mode bench
	@scripts/bench-report.py $(BUILD)ktap.log $(BENCH_OUT)

clean: modules_clean
	rm -rf $(BUILD)initramfs $(BUILD)initramfs.cpio.gz $(BUILD)console.log $(BUILD)ktap.log
