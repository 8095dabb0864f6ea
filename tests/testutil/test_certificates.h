// plugrt tests: a CA of the test's own and certificates it signed (Debian's
// openssl), for the TLS tests of the remote worker and the job coordinator:
// a server certificate for 127.0.0.1, localhost and the simulated hosts'
// addresses, a client certificate, and a client certificate from another CA.
// Header-only.
#ifndef PLUGRT_TESTS_TESTUTIL_TEST_CERTIFICATES_H_
#define PLUGRT_TESTS_TESTUTIL_TEST_CERTIFICATES_H_

#include <string>

#include "testutil/run_command.h"

namespace plugrt::testing {

struct TestCertificates {
  std::string ca, server_cert, server_key, client_cert, client_key;
  // Signed by another CA: a server trusting `ca` refuses it.
  std::string stranger_cert, stranger_key;
  std::string error;  // why they could not be made; empty when made
};

inline TestCertificates MakeTestCertificates(const std::string& dir) {
  TestCertificates made;
  const std::string key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  const std::string script =
      "set -e; cd " + dir + "; "
      "openssl req -x509 " + key + " -keyout ca.key -out ca.pem -days 2 -subj /CN=plugrt-test-ca; "
      "openssl req -x509 " + key + " -keyout other-ca.key -out other-ca.pem -days 2 "
      "-subj /CN=plugrt-other-ca; "
      "printf 'subjectAltName=IP:127.0.0.1,IP:198.18.0.1,IP:198.18.0.2,DNS:localhost\\n' > san.ext; "
      "for who in server client stranger; do "
      "  openssl req " + key + " -keyout $who.key -out $who.csr -subj /CN=plugrt-test-$who; "
      "  ca=ca; [ $who = stranger ] && ca=other-ca; "
      "  openssl x509 -req -in $who.csr -CA $ca.pem -CAkey $ca.key -CAcreateserial "
      "    -out $who.pem -days 2 -extfile san.ext; "
      "done";
  CommandResult result = RunCommand(script);
  if (result.exit_code != 0) {
    made.error = "openssl could not make the test certificates: " + result.output;
    return made;
  }
  made.ca = dir + "/ca.pem";
  made.server_cert = dir + "/server.pem";
  made.server_key = dir + "/server.key";
  made.client_cert = dir + "/client.pem";
  made.client_key = dir + "/client.key";
  made.stranger_cert = dir + "/stranger.pem";
  made.stranger_key = dir + "/stranger.key";
  return made;
}

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_TEST_CERTIFICATES_H_
