/* SPDX-License-Identifier: MIT */
/* kfdsig umbrella header: includes every public component header. */
#ifndef KFDSIG_KFDSIG_H
#define KFDSIG_KFDSIG_H

#include <kfdsig/common.h>
#include <kfdsig/target.h>
#include <kfdsig/fence.h>
#include <kfdsig/layout.h>
#include <kfdsig/pm4.h>
#include <kfdsig/kfd.h>
#include <kfdsig/emu.h>
#include <kfdsig/shader.h>
#include <kfdsig/sdma.h>
#include <kfdsig/aql.h>
#include <kfdsig/decode.h>
#include <kfdsig/decode_input.h>
#include <kfdsig/signal.h>
#include <kfdsig/debug.h>
#include <kfdsig/userq.h>

#endif /* KFDSIG_KFDSIG_H */
