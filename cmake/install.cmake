# What `cmake --install` puts where, the CMake package and pkg-config files
# that describe it, and the .deb packages cpack makes of it.
#
# Layout under the prefix P (lib is CMAKE_INSTALL_LIBDIR):
#   P/include/plugrt/            pjrt_c_api.h and plugrt's C ABIs (eager_c_api.h, kernel_c_api.h, ...)
#   P/include/plugrt/{common,compile_options,client,sdk}/   the C++ headers
#   P/lib/libplugrt.so           the client (with the eager layer and its C API), shared
#   P/lib/libplugrt_*.a          the client, SDK and what they need, static
#   P/lib/plugrt/                plugins found by name (the CPU plugin)
#   P/lib/cmake/plugrt/          find_package(plugrt CONFIG)
#   P/lib/pkgconfig/             plugrt.pc, plugrt-sdk.pc
#   P/bin/plugrt                 the tool
# The C++ headers include each other as "client/...", "common/...", so users
# put P/include/plugrt on the include path (the targets and .pc files do);
# P/include is there too, for <plugrt/eager_c_api.h>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PLUGRT_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/plugrt)
set(PLUGRT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/plugrt)
set(PLUGRT_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/plugrt)

# --- the shared client: libplugrt.so -----------------------------------------
# Made of the static libraries' objects (all PIC), so the code is compiled
# once; protobuf-lite stays a private dependency (its generated classes are
# hidden, no header names it). The IR (plugrt_stablehlo) is in it for the
# eager layer, which sizes its results with the IR's shape functions.
add_library(plugrt_shared SHARED
  $<TARGET_OBJECTS:plugrt_common> $<TARGET_OBJECTS:plugrt_compile_options>
  $<TARGET_OBJECTS:plugrt_filesystem> $<TARGET_OBJECTS:plugrt_profiler>
  $<TARGET_OBJECTS:plugrt_client> $<TARGET_OBJECTS:plugrt_stablehlo>
  $<TARGET_OBJECTS:plugrt_eager>)
add_dependencies(plugrt_shared plugrt_common plugrt_compile_options plugrt_filesystem
                 plugrt_profiler plugrt_client plugrt_stablehlo plugrt_eager)
target_compile_features(plugrt_shared PUBLIC cxx_std_20)
target_link_libraries(plugrt_shared PUBLIC plugrt_pjrt_headers
                                    PRIVATE protobuf::libprotobuf-lite CURL::libcurl ${CMAKE_DL_LIBS}
                                            Threads::Threads)
target_include_directories(plugrt_shared INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/src>)
# Every symbol resolved, except in a clang sanitizer build (the runtimes live
# in the executable), as for plugins (PLUGRT_PLUGIN_LINK_OPTIONS).
if(NOT (PLUGRT_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang"))
  target_link_options(plugrt_shared PRIVATE -Wl,--no-undefined)
endif()
set_target_properties(plugrt_shared PROPERTIES
  OUTPUT_NAME plugrt VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  EXPORT_NAME client)

# Exported names: plugrt::client is the shared library; plugrt::sdk (static,
# PIC: a plugin is one self-contained .so exporting only GetPjrtApi, so it
# carries its SDK rather than depending on the system's); plugrt::client_static
# for programs that link everything in.
set_target_properties(plugrt_pjrt_headers PROPERTIES EXPORT_NAME pjrt_headers)
set_target_properties(plugrt_common PROPERTIES EXPORT_NAME common)
set_target_properties(plugrt_compile_options PROPERTIES EXPORT_NAME compile_options)
set_target_properties(plugrt_filesystem PROPERTIES EXPORT_NAME filesystem)
set_target_properties(plugrt_profiler PROPERTIES EXPORT_NAME profiler)
set_target_properties(plugrt_client PROPERTIES EXPORT_NAME client_static)
set_target_properties(plugrt_sdk PROPERTIES EXPORT_NAME sdk)
# Every other target links pjrt_headers, so this is the one include path.
target_include_directories(plugrt_pjrt_headers INTERFACE
  $<INSTALL_INTERFACE:${PLUGRT_INSTALL_INCLUDEDIR}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

install(TARGETS plugrt_pjrt_headers plugrt_common plugrt_compile_options plugrt_filesystem
                plugrt_profiler plugrt_client
                plugrt_sdk plugrt_shared
        EXPORT plugrtTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(EXPORT plugrtTargets NAMESPACE plugrt:: DESTINATION ${PLUGRT_INSTALL_CMAKEDIR}
        COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/plugrtConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/plugrtConfig.cmake INSTALL_DESTINATION ${PLUGRT_INSTALL_CMAKEDIR}
  PATH_VARS PLUGRT_INSTALL_PLUGINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/plugrtConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)  # 0.x: a minor release may change the C++ API
install(FILES ${CMAKE_BINARY_DIR}/cmake/plugrtConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/plugrtConfigVersion.cmake
        DESTINATION ${PLUGRT_INSTALL_CMAKEDIR} COMPONENT dev)

# --- headers -------------------------------------------------------------------
install(FILES ${CMAKE_SOURCE_DIR}/include/pjrt_c_api.h
        DESTINATION ${PLUGRT_INSTALL_INCLUDEDIR} COMPONENT dev)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/plugrt/
        DESTINATION ${PLUGRT_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/src/common ${CMAKE_SOURCE_DIR}/src/compile_options
                  ${CMAKE_SOURCE_DIR}/src/profiler ${CMAKE_SOURCE_DIR}/src/client
        DESTINATION ${PLUGRT_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h")
# The SDK's interfaces; its api_*.h and handles.h are the table's own insides.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/src/sdk
        DESTINATION ${PLUGRT_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h"
        PATTERN "api_*.h" EXCLUDE PATTERN "handles.h" EXCLUDE)

# --- pkg-config ------------------------------------------------------------------
file(RELATIVE_PATH PLUGRT_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
foreach(pc plugrt plugrt-sdk)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endforeach()

# --- the tool and the CPU plugin -------------------------------------------------
install(TARGETS plugrt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS plugrt_cpu LIBRARY DESTINATION ${PLUGRT_INSTALL_PLUGINDIR} COMPONENT runtime)
# The remote plugin (a worker's devices, `plugrt serve`): `--plugin remote`.
install(TARGETS plugrt_remote LIBRARY DESTINATION ${PLUGRT_INSTALL_PLUGINDIR} COMPONENT runtime)
# bash completion, written by the tool from its own command-line definition.
set(PLUGRT_BASH_COMPLETION ${CMAKE_BINARY_DIR}/share/bash-completion/completions/plugrt)
add_custom_command(OUTPUT ${PLUGRT_BASH_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/share/bash-completion/completions
  COMMAND sh -c "ASAN_OPTIONS=detect_leaks=0 '$<TARGET_FILE:plugrt>' completion bash > '${PLUGRT_BASH_COMPLETION}'"
  DEPENDS plugrt VERBATIM)
add_custom_target(plugrt_bash_completion ALL DEPENDS ${PLUGRT_BASH_COMPLETION})
install(FILES ${PLUGRT_BASH_COMPLETION}
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT runtime)

# --- plugin discovery (src/client/plugin_discovery.cc) ---------------------------
# The client looks for lib/plugrt/ relative to the module holding it, in
# P/LIBDIR/plugrt as installed; the build tree gets the same folder, holding
# links to the CPU and remote plugins, so build/bin/plugrt finds "cpu" and
# "remote" the same way.
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/client/plugin_discovery.cc PROPERTIES
  COMPILE_DEFINITIONS PLUGRT_INSTALL_LIBDIR="${CMAKE_INSTALL_LIBDIR}")
add_custom_command(TARGET plugrt_cpu POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/plugrt
  COMMAND ${CMAKE_COMMAND} -E create_symlink ../$<TARGET_FILE_NAME:plugrt_cpu>
          ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/plugrt/$<TARGET_FILE_NAME:plugrt_cpu>
  VERBATIM)
add_custom_command(TARGET plugrt_remote POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/plugrt
  COMMAND ${CMAKE_COMMAND} -E create_symlink ../$<TARGET_FILE_NAME:plugrt_remote>
          ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/plugrt/$<TARGET_FILE_NAME:plugrt_remote>
  VERBATIM)

include(${CMAKE_CURRENT_LIST_DIR}/packaging.cmake)
