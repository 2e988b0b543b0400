#include <archive.h>
#include <archive_entry.h>

// Notula loads libarchive with dlopen at its first unpack (ArchiveCalls.swift): it brings libxml2, ICU and a
// dozen compression libraries that a service which installs no model should not hold.

// The entry types, which Swift cannot import: archive_entry.h defines them through a cast macro.
static inline __LA_MODE_T carchive_regular_file(void) { return AE_IFREG; }
static inline __LA_MODE_T carchive_directory(void) { return AE_IFDIR; }
static inline __LA_MODE_T carchive_symbolic_link(void) { return AE_IFLNK; }
static inline __LA_MODE_T carchive_named_pipe(void) { return AE_IFIFO; }
static inline __LA_MODE_T carchive_character_device(void) { return AE_IFCHR; }
static inline __LA_MODE_T carchive_block_device(void) { return AE_IFBLK; }
static inline __LA_MODE_T carchive_socket(void) { return AE_IFSOCK; }
