// The library's log (common/log.h): silent by default, levels as documented.
#include "common/log.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace plugrt {
namespace {

TEST(LogTest, LevelsParseByName) {
  for (LogLevel level : {LogLevel::kOff, LogLevel::kError, LogLevel::kWarning, LogLevel::kInfo}) {
    StatusOr<LogLevel> parsed = ParseLogLevel(LogLevelName(level));
    ASSERT_TRUE(parsed.ok()) << LogLevelName(level);
    EXPECT_EQ(*parsed, level);
  }
  StatusOr<LogLevel> bad = ParseLogLevel("loud");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("off, error, warning, info"), std::string::npos);
}

TEST(LogTest, SilentUnlessAsked) {
  // This test program's environment does not set PLUGRT_LOG_LEVEL (ctest
  // runs it without), so the level starts off.
  ASSERT_EQ(getenv(kLogLevelEnv), nullptr);
  EXPECT_EQ(GetLogLevel(), LogLevel::kOff);
  ::testing::internal::CaptureStderr();
  Log(LogLevel::kError, "test", "not shown");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");

  SetLogLevel(LogLevel::kWarning);
  ::testing::internal::CaptureStderr();
  Log(LogLevel::kWarning, "test", "shown");
  Log(LogLevel::kInfo, "test", "too detailed");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "plugrt test: shown\n");
  SetLogLevel(LogLevel::kOff);
}

}  // namespace
}  // namespace plugrt
