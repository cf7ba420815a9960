#include "firmata.h"

namespace firmata {

void Parser::reset() {
  command_ = 0;
  needed_ = 0;
  count_ = 0;
  inSysex_ = false;
  sysexOverflow_ = false;
  sysexLength_ = 0;
}

// Data bytes that follow a command byte outside sysex.
static uint8_t dataBytesFor(uint8_t command) {
  switch (command) {
    case DIGITAL_MESSAGE:
    case ANALOG_MESSAGE:
    case SET_PIN_MODE:
    case SET_DIGITAL_PIN_VALUE:
      return 2;
    case REPORT_ANALOG:
    case REPORT_DIGITAL:
      return 1;
    default:
      return 0;
  }
}

bool Parser::feed(uint8_t byte, Message &out) {
  if (byte & 0x80) {
    if (byte == END_SYSEX) {
      bool complete = inSysex_ && !sysexOverflow_ && sysexLength_ > 0;
      if (inSysex_ && sysexOverflow_ && overflows_ < 255) overflows_++;
      inSysex_ = false;
      if (!complete) return false;
      out.kind = Message::SYSEX;
      out.command = sysex_[0];
      out.channel = 0;
      out.payload = sysex_ + 1;
      out.length = sysexLength_ - 1;
      return true;
    }
    // Any other command byte abandons what was pending.
    inSysex_ = false;
    command_ = 0;
    count_ = 0;
    if (byte == START_SYSEX) {
      inSysex_ = true;
      sysexOverflow_ = false;
      sysexLength_ = 0;
      return false;
    }
    if (byte == REPORT_VERSION || byte == SYSTEM_RESET) {
      out.kind = byte == REPORT_VERSION ? Message::VERSION_QUERY : Message::SYSTEM_RESET_REQUEST;
      out.command = byte;
      out.length = 0;
      return true;
    }
    uint8_t command = byte < 0xF0 ? (byte & 0xF0) : byte;
    uint8_t needed = dataBytesFor(command);
    if (needed == 0) return false;  // a command we do not implement: its data bytes get ignored
    command_ = command;
    channel_ = byte < 0xF0 ? (byte & 0x0F) : 0;
    needed_ = needed;
    return false;
  }

  if (inSysex_) {
    if (sysexLength_ < sizeof(sysex_)) {
      sysex_[sysexLength_++] = byte;
    } else {
      sysexOverflow_ = true;
    }
    return false;
  }
  if (command_ == 0) return false;  // stray data byte
  data_[count_++] = byte;
  if (count_ < needed_) return false;
  out.kind = Message::CHANNEL;
  out.command = command_;
  out.channel = channel_;
  out.data[0] = data_[0];
  out.data[1] = needed_ > 1 ? data_[1] : 0;
  out.length = needed_;
  command_ = 0;
  count_ = 0;
  return true;
}

void sendVersion(Print &out) {
  out.write(REPORT_VERSION);
  out.write(PROTOCOL_MAJOR);
  out.write(PROTOCOL_MINOR);
}

void startSysex(Print &out, uint8_t id) {
  out.write(START_SYSEX);
  out.write(id & 0x7F);
}

void send14(Print &out, uint16_t value) {
  out.write(value & 0x7F);
  out.write((value >> 7) & 0x7F);
}

void endSysex(Print &out) { out.write(END_SYSEX); }

// Text goes as two 7-bit bytes per character, as REPORT_FIRMWARE and STRING_DATA require.
static void sendText(Print &out, const char *text) {
  for (const char *c = text; *c; c++) send14(out, uint8_t(*c));
}

void sendFirmware(Print &out, uint8_t major, uint8_t minor, const char *name) {
  startSysex(out, REPORT_FIRMWARE);
  out.write(major & 0x7F);
  out.write(minor & 0x7F);
  sendText(out, name);
  endSysex(out);
}

void sendString(Print &out, const char *text) {
  startSysex(out, STRING_DATA);
  sendText(out, text);
  endSysex(out);
}

void sendAnalog(Print &out, uint8_t channel, uint16_t value) {
  out.write(ANALOG_MESSAGE | (channel & 0x0F));
  send14(out, value);
}

void sendDigitalPort(Print &out, uint8_t port, uint8_t value) {
  out.write(DIGITAL_MESSAGE | (port & 0x0F));
  out.write(value & 0x7F);
  out.write(value >> 7);
}

uint32_t decode7(const uint8_t *bytes, uint8_t length) {
  uint32_t value = 0;
  if (length > 4) length = 4;
  for (uint8_t i = 0; i < length; i++) value |= uint32_t(bytes[i] & 0x7F) << (7 * i);
  return value;
}

}  // namespace firmata
