//! How much memory the machine can still give: the bound on hash table sizes. On Linux the
//! allocator's answer alone is not enough, since with overcommit a huge allocation succeeds
//! and the process is killed later, when the table is touched.

/// Bytes the system can give without swapping (`MemAvailable` of `/proc/meminfo`); `None`
/// where that is not known (other systems), and then only the allocator decides.
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available(&text)
}

/// The `MemAvailable:` line of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let kb: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kb.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available_in_bytes() {
        let text = "MemTotal:       24683520 kB\nMemFree:        23853220 kB\n\
                    MemAvailable:   24199968 kB\nBuffers:           10000 kB\n";
        assert_eq!(mem_available(text), Some(24_199_968 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots\n"), None);
    }

    #[test]
    fn this_machine_reports_something_plausible_on_linux() {
        if cfg!(target_os = "linux") {
            let bytes = available_bytes().expect("/proc/meminfo has MemAvailable");
            assert!(bytes > 1 << 20, "{bytes}");
        }
    }
}
