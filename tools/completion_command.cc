// `plugrt completion bash`: a bash completion script written from the CLI's
// own definition (subcommands, their options, which options take a value),
// so it never falls behind the commands. The build installs its output as
// share/bash-completion/completions/plugrt.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "tools/commands.h"

namespace plugrt::tools {
namespace {

struct CommandWords {
  std::string name;
  std::vector<std::string> options;         // every spelling, -h and --help alike
  std::vector<std::string> value_options;   // those followed by a value
};

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

CommandWords WordsOf(const CLI::App& command) {
  CommandWords words{command.get_name(), {}, {}};
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_positional() && option->get_lnames().empty() && option->get_snames().empty()) {
      continue;
    }
    std::vector<std::string> spellings;
    for (const std::string& name : option->get_snames()) spellings.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) spellings.push_back("--" + name);
    words.options.insert(words.options.end(), spellings.begin(), spellings.end());
    if (option->get_expected_max() > 0) {  // flags expect no value
      words.value_options.insert(words.value_options.end(), spellings.begin(), spellings.end());
    }
  }
  return words;
}

void WriteBash(const CLI::App& app, std::ostream& out) {
  // Hidden subcommands (no group, like conformance-file) are not offered.
  std::vector<CommandWords> commands;
  std::vector<std::string> names;
  for (const CLI::App* command :
       app.get_subcommands([](const CLI::App* c) { return !c->get_group().empty(); })) {
    commands.push_back(WordsOf(*command));
    names.push_back(command->get_name());
  }
  CommandWords top = WordsOf(app);
  std::string alternatives;  // a case pattern: devices|run|...
  for (const std::string& name : names) alternatives += (alternatives.empty() ? "" : "|") + name;
  out << "# bash completion for plugrt, written by `plugrt completion bash`.\n"
      << "_plugrt() {\n"
      << "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
      << "  local command=\"\" i\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    case \"${COMP_WORDS[i]}\" in\n"
      << "      " << alternatives << ") command=\"${COMP_WORDS[i]}\"; break ;;\n"
      << "    esac\n"
      << "  done\n"
      << "  local options=\"\" value_options=\"\"\n"
      << "  case \"$command\" in\n"
      << "    \"\")\n"
      << "      COMPREPLY=($(compgen -W \"" << Join(names) << " " << Join(top.options)
      << "\" -- \"$cur\"))\n"
      << "      return ;;\n";
  for (const CommandWords& command : commands) {
    out << "    " << command.name << ")\n"
        << "      options=\"" << Join(command.options) << "\"\n"
        << "      value_options=\"" << Join(command.value_options) << "\" ;;\n";
  }
  out << "  esac\n"
      << "  # An option's value: --plugin takes a plugin name or file; others files.\n"
      << "  if [[ \" $value_options \" == *\" $prev \"* ]]; then\n"
      << "    if [[ $prev == --plugin ]]; then\n"
      << "      COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" plugins --names 2>/dev/null)\" -- \"$cur\")"
         " $(compgen -f -- \"$cur\"))\n"
      << "    else\n"
      << "      COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      << "    fi\n"
      << "    return\n"
      << "  fi\n"
      << "  if [[ $cur == -* ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
      << "  else\n"
      << "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      << "  fi\n"
      << "}\n"
      << "complete -o filenames -F _plugrt plugrt\n";
}

}  // namespace

void RegisterCompletionCommand(CLI::App& app, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "completion", "Print a shell completion script (bash), made from this command line's "
                    "definition: `source <(plugrt completion bash)`");
  command->add_option("shell", *shell, "the shell (bash)")->required()->check(CLI::IsMember({"bash"}));
  // The callback holds `shell`: CLI11 writes the parsed value into it.
  command->callback([&app, &exit_code, shell] {
    WriteBash(app, std::cout);
    exit_code = 0;
  });
}

}  // namespace plugrt::tools
