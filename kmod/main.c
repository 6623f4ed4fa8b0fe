// SPDX-License-Identifier: GPL-2.0
/*
 * rblk - NVMe over Fabrics RDMA host: one controller per connect, a block
 * device /dev/rblkN for each of its namespaces.
 *
 * This file holds the module entry points and the parameters every layer
 * shares.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "rblk.h"

struct workqueue_struct *rblk_wq;

unsigned int rblk_io_timeout = 30;
module_param_named(io_timeout, rblk_io_timeout, uint, 0644);
MODULE_PARM_DESC(io_timeout, "I/O command timeout in seconds (default 30)");

unsigned int rblk_admin_timeout = 10;
module_param_named(admin_timeout, rblk_admin_timeout, uint, 0644);
MODULE_PARM_DESC(admin_timeout,
		 "admin and Fabrics command timeout in seconds (default 10)");

static int __init rblk_init(void)
{
	int ret;

	rblk_wq = alloc_workqueue("rblk_wq", WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!rblk_wq)
		return -ENOMEM;
	ret = rblk_sysfs_init();
	if (ret)
		goto out_destroy_wq;
	ret = rblk_ioctl_init();
	if (ret)
		goto out_sysfs_exit;
	ret = rblk_ns_init();
	if (ret)
		goto out_ioctl_exit;
	ret = rblk_rdma_init();
	if (ret)
		goto out_ns_exit;
	ret = rblk_host_init();
	if (ret)
		goto out_rdma_exit;
	rblk_fault_init();
	ret = rblk_nl_init();
	if (ret)
		goto out_host_exit;
	pr_info("loaded\n");
	return 0;

out_host_exit:
	rblk_fault_exit();
	rblk_host_exit();
out_rdma_exit:
	rblk_rdma_exit();
out_ns_exit:
	rblk_ns_exit();
out_ioctl_exit:
	rblk_ioctl_exit();
out_sysfs_exit:
	rblk_sysfs_exit();
out_destroy_wq:
	destroy_workqueue(rblk_wq);
	return ret;
}

static void __exit rblk_exit(void)
{
	/* No new commands first, then nothing left to serve them. */
	rblk_nl_exit();
	rblk_host_exit();
	rblk_fault_exit();
	rblk_rdma_exit();
	rblk_ns_exit();
	rblk_ioctl_exit();
	rblk_subsys_exit();
	rblk_sysfs_exit();
	destroy_workqueue(rblk_wq);
}

module_init(rblk_init);
module_exit(rblk_exit);

MODULE_AUTHOR("The rblk authors");
MODULE_DESCRIPTION("NVMe over Fabrics RDMA host block device");
MODULE_LICENSE("GPL");
MODULE_VERSION(RBLK_VERSION);
