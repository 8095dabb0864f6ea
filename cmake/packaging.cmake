# .deb packages of the install (cmake/install.cmake), one per install component:
#   plugrt      (component runtime): libplugrt.so.0, the CPU plugin, the tool
#   plugrt-dev  (component dev): headers, static libraries, libplugrt.so,
#               the CMake package and pkg-config files
#   cpack -G DEB --config build/CPackConfig.cmake
# The runtime package's dependencies on Debian's libraries (oneDNN, OpenBLAS,
# LAPACKE, libgomp, protobuf-lite, libstdc++) come from dpkg-shlibdeps, so they
# are those of the libraries this build linked.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME plugrt)
set(CPACK_PACKAGE_VENDOR "plugrt")
set(CPACK_PACKAGE_CONTACT "plugrt maintainers <plugrt@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "standalone runtime for PJRT plugins, with a CPU plugin for StableHLO")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME plugrt)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_GENERATE_SHLIBS ON)  # postinst/postrm run ldconfig
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "PJRT runtime: the plugrt client library, the CPU plugin and the plugrt tool")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME plugrt-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# The static client decodes compile options with protobuf-lite, which the
# CMake package finds (find_dependency(Protobuf)).
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "plugrt (= ${PROJECT_VERSION}), libprotobuf-dev")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "PJRT runtime, development files: headers, static libraries, the plugin SDK, CMake and pkg-config files")
include(CPack)
