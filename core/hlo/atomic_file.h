// Files written so that a crash or a kill at any moment leaves under the
// file's name either the file that was there or the whole new one: the
// bytes go to "<path>.partial" first, are synced, and are renamed onto the
// path (a rename within a folder is atomic).
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace systolic {

// Where the bytes of `path` go until they are complete.
std::string PartialPathOf(const std::string& path);

// Renames the complete, synced `partial` onto `path`, then syncs the folder
// so that the rename survives a crash of the machine too.
absl::Status RenameIntoPlace(const std::string& partial, const std::string& path);

// Writes `bytes` as the whole of `path`, atomically as above.
absl::Status WriteFileAtomically(const std::string& path, absl::string_view bytes);

}  // namespace systolic
