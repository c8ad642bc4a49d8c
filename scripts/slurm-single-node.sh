#!/bin/sh
# A single-node Slurm on this machine (controller and compute node in one),
# from Debian's packages, to run docs/cluster.md's job-array script for
# real. Run as root on Debian 12 or later; safe to run again. Started
# without systemd (containers), so it also works in CI.
#
#   scripts/slurm-single-node.sh          install, configure, start
#   scripts/slurm-single-node.sh stop     stop the daemons it started
set -eu

conf=/etc/slurm/slurm.conf
if [ "${1:-}" = stop ]; then
    for pid in /run/slurmd.pid /run/slurmctld.pid; do
        [ -s "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
    done
    exit 0
fi

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

# Munge authenticates Slurm's messages: a key, then the daemon.
mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 0400 /etc/munge/munge.key
chmod 0755 /run/munge
if ! munge -n >/dev/null 2>&1; then
    su -s /bin/sh munge -c /usr/sbin/munged
    sleep 1
fi
munge -n | unmunge >/dev/null

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat >"$conf" <<CONF
# Written by scripts/slurm-single-node.sh: one machine, one partition.
ClusterName=roots
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
# No cgroup.conf: Slurm 22.05 finds the cgroup version itself (and knows
# no `CgroupPlugin=disabled`); jobs are tracked as plain processes.

if ! scontrol ping 2>/dev/null | grep -q UP; then
    slurmctld || { tail -5 /var/log/slurm/slurmctld.log >&2; exit 1; }
fi
if ! { [ -s /run/slurmd.pid ] && kill -0 "$(cat /run/slurmd.pid)" 2>/dev/null; }; then
    slurmd || { tail -5 /var/log/slurm/slurmd.log >&2; exit 1; }
fi
# Wait for the node to take jobs.
i=0
until sinfo -h -o %T 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; do
    i=$((i + 1))
    if [ "$i" -gt 60 ]; then
        echo "slurm did not come up; see /var/log/slurm/" >&2
        sinfo >&2 || true
        exit 1
    fi
    sleep 1
done
sinfo
