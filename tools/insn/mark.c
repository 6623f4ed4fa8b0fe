// SPDX-License-Identifier: GPL-2.0
/*
 * rblk-insn-mark: run the one instruction that the rblk-insn plugin
 * (insn.c) takes as a mark, then exit.  No C library: the program is
 * copied alone into the guest, and its own cost between two marks is a
 * few instructions.
 */
void _start(void);

void _start(void)
{
	__asm__ volatile("nopw 0x4b4c4252(%%rax,%%rax,1)" ::: "memory");
	__asm__ volatile("syscall" : : "a"(60), "D"(0) : "rcx", "r11", "memory");
	__builtin_unreachable();
}
