// Saves are atomic: `systolic run --profile` killed at any moment leaves
// under the profile's name either the profile that was there or the whole
// new one, never half a file; `compile --dump` and `eval --out` write the
// same way.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "core/hlo/atomic_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/app/cli/cli_runner.h"

namespace systolic {
namespace {

using ::systolic::testing::CliResult;
using ::systolic::testing::CliTempPath;
using ::systolic::testing::RunCli;
using ::systolic::testing::SampleHlo;
namespace fs = std::filesystem;

// A fresh, empty folder for a test's files.
std::string FreshFolder(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "systolic_cli_tests" / name;
  fs::remove_all(dir);
  return dir.string();
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Starts `systolic run PROGRAM --timing-only --profile PATH` with its output
// thrown away.
pid_t StartRun(const std::string& program, const std::string& path) {
  const pid_t child = ::fork();
  if (child == 0) {
    const int quiet = ::open("/dev/null", O_WRONLY);
    ::dup2(quiet, 1);
    ::dup2(quiet, 2);
    ::execl(SYSTOLIC_CLI, SYSTOLIC_CLI, "run", program.c_str(), "--timing-only", "--profile",
            path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return child;
}

// Kills `child` and says whether it was still running then.
bool Kill(pid_t child) {
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFSIGNALED(status);
}

// Starts a run and kills it after `delay`; says whether it was still running.
bool KillRunAfter(const std::string& program, const std::string& path,
                  std::chrono::milliseconds delay) {
  const pid_t child = StartRun(program, path);
  std::this_thread::sleep_for(delay);
  return Kill(child);
}

// Starts a run and kills it as soon as its `.partial` file appears, so the
// kill lands mid-write however loaded the machine is. Says whether it did.
bool KillRunMidWrite(const std::string& program, const std::string& path) {
  const pid_t child = StartRun(program, path);
  const std::string partial = PartialPathOf(path);
  int status = 0;
  while (!fs::exists(partial)) {
    if (::waitpid(child, &status, WNOHANG) == child) return false;  // ended first
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return Kill(child) && fs::exists(partial);
}

TEST(KilledWriter, AKilledProfileWriteLeavesTheOldProfileOrTheNewOne) {
  const std::string program = SampleHlo("scanned_decoder_step_spmd.hlo");
  const std::string path = CliTempPath("killed.sysprof");
  // The profile already there, and how long a whole run takes.
  const auto start = std::chrono::steady_clock::now();
  CliResult first = RunCli("run " + program + " --timing-only --profile " + path);
  const auto whole = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const std::string old_profile = ReadAll(path);
  ASSERT_FALSE(old_profile.empty());

  int killed = 0, killed_while_writing = 0;
  for (double fraction : {0.05, 0.3, 0.6, 0.75, 0.85, 0.9, 0.95, 0.98}) {
    fs::remove(PartialPathOf(path));
    const auto delay = std::chrono::milliseconds(int64_t(double(whole.count()) * fraction));
    if (!KillRunAfter(program, path, delay)) continue;
    ++killed;
    if (fs::exists(PartialPathOf(path))) ++killed_while_writing;
    // The name holds a whole profile: the old one byte for byte, or a new
    // one that reads back.
    if (ReadAll(path) == old_profile) continue;
    CliResult info = RunCli("info " + path + " --json", /*with_stderr=*/false);
    EXPECT_EQ(info.exit_code, 0) << "killed after " << delay.count() << " ms: " << info.out;
  }
  // One more kill, timed by the write itself rather than by the clock.
  fs::remove(PartialPathOf(path));
  const std::string before_kill = ReadAll(path);  // a timed run may have finished
  if (KillRunMidWrite(program, path)) {
    ++killed;
    ++killed_while_writing;
    EXPECT_TRUE(ReadAll(path) == before_kill) << "a run killed mid-write replaced the profile";
  }
  // The kills landed: some before the run ended, one at least mid-write.
  EXPECT_GE(killed, 4);
  EXPECT_GE(killed_while_writing, 1);
}

TEST(KilledWriter, AWholeFileReplacesTheOldOneAndAFailedWriteLeavesNothing) {
  const std::string path = CliTempPath("atomic.txt");
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new and longer").ok());
  EXPECT_EQ(ReadAll(path), "new and longer");
  EXPECT_FALSE(fs::exists(PartialPathOf(path)));
  const absl::Status missing_folder = WriteFileAtomically(path + ".d/none/x", "bytes");
  EXPECT_FALSE(missing_folder.ok());
  EXPECT_THAT(std::string(missing_folder.message()), ::testing::HasSubstr("cannot create"));
}

// The other files the CLI writes go through the same rename.
TEST(KilledWriter, DumpsAndOutputsAreWrittenWhole) {
  const std::string dir = FreshFolder("dumped");
  CliResult compile = RunCli("compile " + SampleHlo("mlp_layer.hlo") + " --dump-dir " + dir);
  ASSERT_EQ(compile.exit_code, 0) << compile.out;
  int stages = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().extension(), ".hlo") << entry.path();
    ++stages;
  }
  EXPECT_GT(stages, 3);
  const std::string out = FreshFolder("outputs");
  CliResult eval = RunCli("eval " + SampleHlo("mlp_layer.hlo") + " --out " + out);
  ASSERT_EQ(eval.exit_code, 0) << eval.out;
  int outputs = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(out)) {
    EXPECT_EQ(entry.path().extension(), ".npy") << entry.path();
    ++outputs;
  }
  EXPECT_GE(outputs, 1);
}

}  // namespace
}  // namespace systolic
